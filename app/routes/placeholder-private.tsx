/** A sign-in-only page that a later issue fills; the guard of docs/product/routes.md#access-and-guards already applies. */
import { useLocation } from "react-router";
import type { Route } from "./+types/placeholder-private";
import { ComingSoon, placeholderTitle } from "~/components/layout/coming-soon";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches, location }) => pageMeta(matches, placeholderTitle(location.pathname));

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return null;
}

export default function PrivatePlaceholderPage() {
  return <ComingSoon title={placeholderTitle(useLocation().pathname)} />;
}
