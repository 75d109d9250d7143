/**
 * /services/guarantor (sign-in required; docs/product/deals.md#pages-and-calls): the member's deals as
 * buyer or seller with their states, the «Новая сделка» form, and for moderators the queue of
 * disputed deals. Each list pages on its own key (?page for the member's deals, ?disputes for
 * the queue). The form works without JavaScript and carries an idempotency key made by the
 * loader, so a double submit creates one deal.
 */
import { useLocation } from "react-router";
import type { Route } from "./+types/index";
import { DealList } from "~/components/deals/deal-list";
import { FEE_TERMS } from "~/components/deals/fee-terms";
import { NewDealForm } from "~/components/deals/new-deal-form";
import { NewDealPageSchema } from "~/components/deals/schemas";
import { Pagination } from "~/components/ui/pagination";
import { createDeal, listDealsOf, listDisputedDeals } from "~/domain/deals/deals.server";
import { DEAL_AUTO_COMPLETE_HOURS } from "~/domain/deals/fees";
import { isModerator } from "~/domain/deals/queries.server";
import { requireUser } from "~/lib/auth.server";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { parsePageParams } from "~/lib/pagination";
import { revalidateAfterConflict } from "~/lib/revalidate";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Гарант-сервис");
export const shouldRevalidate = revalidateAfterConflict;

const pageOf = (search: URLSearchParams, key: string) => parsePageParams(new URLSearchParams({ page: search.get(key) ?? "1" }));

/** «YYYY-MM-DD» in Moscow time, `days` from now. */
function moscowDate(days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString("en-CA", { timeZone: "Europe/Moscow" });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const search = new URL(request.url).searchParams;
  const moderator = await isModerator(context.db, user.id);
  return {
    viewerId: user.id,
    deals: await listDealsOf(context.db, user.id, pageOf(search, "page")),
    disputes: moderator ? await listDisputedDeals(context.db, user.id, pageOf(search, "disputes")) : null,
    idempotencyKey: newIdempotencyKey(),
    today: moscowDate(),
    defaultDeadline: moscowDate(7),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: NewDealPageSchema,
    fieldFor: { counterparty_not_found: "counterparty", blocked: "counterparty" },
    async perform(user, { key, ...input }) {
      const deal = await createDeal(context.db, user.id, input, key);
      return {
        redirectTo: `/services/guarantor/deals/${deal.id}`,
        toast: { title: `Сделка №${deal.id} создана`, description: "Ждём, пока вторая сторона её примет." },
      };
    },
  });
}

export default function GuarantorPage({ loaderData, actionData }: Route.ComponentProps) {
  const { deals, disputes, viewerId } = loaderData;
  const location = useLocation();
  return (
    <div className="grid grid-cols-1 gap-8">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Гарант-сервис</h1>
        <p className="mt-1 max-w-3xl text-muted-foreground">
          Безопасная сделка: покупатель оплачивает её гаранту, продавец передаёт товар, и только после подтверждения покупателя деньги уходят продавцу. Если
          покупатель не ответит {DEAL_AUTO_COMPLETE_HOURS} часа после передачи, сделка завершится автоматически. Спорные сделки решают модераторы. Комиссия
          гаранта — {FEE_TERMS}.
        </p>
      </div>
      {disputes ? (
        <section className="grid grid-cols-1 gap-3">
          <h2 className="font-heading text-xl font-bold">Споры на рассмотрении ({disputes.total})</h2>
          <DealList deals={disputes.items} viewerId={viewerId} empty="Открытых споров нет." testId="disputes" />
          <Pagination
            page={disputes.page}
            totalPages={disputes.totalPages}
            makeHref={(p) => withSearchParam("/services/guarantor", location.search, "disputes", p)}
          />
        </section>
      ) : null}
      <section className="grid grid-cols-1 gap-3">
        <h2 className="font-heading text-xl font-bold">Мои сделки</h2>
        <DealList deals={deals.items} viewerId={viewerId} empty="Сделок пока нет. Создайте первую ниже." testId="my-deals" />
        <Pagination page={deals.page} totalPages={deals.totalPages} makeHref={(p) => withSearchParam("/services/guarantor", location.search, "page", p)} />
      </section>
      <section className="grid max-w-3xl grid-cols-1 gap-3 rounded-xl border border-border bg-card p-5">
        <h2 className="font-heading text-xl font-bold">Новая сделка</h2>
        <NewDealForm
          action="/services/guarantor"
          idempotencyKey={loaderData.idempotencyKey}
          today={loaderData.today}
          defaultDeadline={loaderData.defaultDeadline}
          lastResult={actionData?.result}
        />
      </section>
    </div>
  );
}
