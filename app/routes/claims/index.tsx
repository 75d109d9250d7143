/**
 * /claims (sign-in required; docs/product/claims.md): the member's claims — filed and
 * against them — and, for moderators, the queue of open claims. Each list pages on its own key
 * (?filed, ?against, ?queue).
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/index";
import { ClaimList } from "~/components/claims/claim-list";
import { buttonVariants } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { isModerator, listClaimsAgainst, listClaimsFiledBy, listOpenClaims } from "~/domain/claims/claims.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Претензии");

const pageOf = (search: URLSearchParams, key: string) => parsePageParams(new URLSearchParams({ page: search.get(key) ?? "1" }));

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const search = new URL(request.url).searchParams;
  const moderator = isModerator(user);
  const [filed, against, queue] = await Promise.all([
    listClaimsFiledBy(context.db, user.id, pageOf(search, "filed")),
    listClaimsAgainst(context.db, user.id, pageOf(search, "against")),
    moderator ? listOpenClaims(context.db, user.id, pageOf(search, "queue")) : null,
  ]);
  return { filed, against, queue };
}

export default function ClaimsPage({ loaderData }: Route.ComponentProps) {
  const { filed, against, queue } = loaderData;
  const location = useLocation();
  const href = (key: string) => (p: number) => withSearchParam(location.pathname, location.search, key, p);
  return (
    <div className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Претензии</h1>
          <p className="mt-1 text-muted-foreground">
            Если участник вас обманул, подайте претензию: модератор рассмотрит её, а обманщик попадёт в{" "}
            <Link to="/blacklist" className="text-primary underline underline-offset-2">
              чёрный список
            </Link>
            .
          </p>
        </div>
        <Link to="/claims/new" className={buttonVariants()}>
          Подать претензию
        </Link>
      </div>
      {queue ? (
        <section className="grid gap-3" aria-labelledby="claims-queue">
          <h2 id="claims-queue" className="font-heading text-xl font-bold">
            Очередь модератора: открытые претензии ({queue.total})
          </h2>
          <ClaimList claims={queue.items} show="both" empty="Открытых претензий нет." />
          <Pagination page={queue.page} totalPages={queue.totalPages} makeHref={href("queue")} />
        </section>
      ) : null}
      <section className="grid gap-3" aria-labelledby="claims-filed">
        <h2 id="claims-filed" className="font-heading text-xl font-bold">
          Мои претензии
        </h2>
        <ClaimList claims={filed.items} show="accused" empty="Вы ещё не подавали претензий." />
        <Pagination page={filed.page} totalPages={filed.totalPages} makeHref={href("filed")} />
      </section>
      <section className="grid gap-3" aria-labelledby="claims-against">
        <h2 id="claims-against" className="font-heading text-xl font-bold">
          Претензии ко мне
        </h2>
        <ClaimList claims={against.items} show="claimant" empty="Претензий к вам нет." />
        <Pagination page={against.page} totalPages={against.totalPages} makeHref={href("against")} />
      </section>
    </div>
  );
}
