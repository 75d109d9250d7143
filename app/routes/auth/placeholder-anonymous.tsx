/** A signed-out-only auth page that a later issue fills; signed-in members go to /profile. */
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/placeholder-anonymous";
import { placeholderTitle } from "~/components/layout/coming-soon";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireAnonymous } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches, location }) => pageMeta(matches, placeholderTitle(location.pathname));

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(context, request);
  return null;
}

export default function AnonymousPlaceholderPage() {
  return (
    <Card data-testid="coming-soon">
      <CardHeader>
        <CardTitle className="font-heading text-2xl">{placeholderTitle(useLocation().pathname)}</CardTitle>
        <CardDescription>Скоро здесь можно будет сделать это самостоятельно. Пока напишите администрации.</CardDescription>
      </CardHeader>
      <CardContent>
        <Link to="/auth/login" className="font-medium text-primary hover:underline">
          Вернуться ко входу
        </Link>
      </CardContent>
    </Card>
  );
}
