/**
 * /blacklist (bare layout, public; docs/product/claims.md#blacklist): members whose claims a
 * moderator upheld, newest first — avatar with the scam mark, name, the moderator's reason, the
 * claimed amount, the date and a link to the claim. A GET search form (`?q=`, works without
 * JavaScript; docs/product/claims.md#blacklist-search) narrows it by name or reason; paginated
 * with ?page, keeping the query.
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/blacklist";
import { BlacklistSearch } from "~/components/claims/blacklist-search";
import { BlacklistTable } from "~/components/claims/blacklist-table";
import { Pagination } from "~/components/ui/pagination";
import { normalizeBlacklistQuery } from "~/domain/claims/blacklist-query";
import { listBlacklist } from "~/domain/claims/claims.server";
import { getOptionalUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Чёрный список", "Участники, претензии к которым модераторы признали обоснованными: причина, сумма и дата.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const q = normalizeBlacklistQuery(search.get("q"));
  const [page, viewer] = await Promise.all([listBlacklist(context.db, parsePageParams(search), q), getOptionalUser(context, request)]);
  return { page, q, signedIn: viewer !== null };
}

export default function BlacklistPage({ loaderData }: Route.ComponentProps) {
  const { page, q, signedIn } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Чёрный список</h1>
          <p className="mt-1 text-muted-foreground">
            Участники, претензии к которым модераторы признали обоснованными. Перед сделкой проверьте собеседника здесь.
          </p>
        </div>
        {signedIn ? (
          <div className="flex gap-4">
            <Link to="/claims" className="tap-target font-medium text-primary hover:underline">
              Мои претензии
            </Link>
            <Link to="/claims/new" className="tap-target font-medium text-primary hover:underline">
              Подать претензию
            </Link>
          </div>
        ) : null}
      </div>
      <BlacklistSearch q={q} total={page.total} />
      <BlacklistTable entries={page.items} searched={q !== ""} />
      <Pagination page={page.page} totalPages={page.totalPages} makeHref={(p) => withSearchParam(location.pathname, location.search, "page", p)} />
    </div>
  );
}
