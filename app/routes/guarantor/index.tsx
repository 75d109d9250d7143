/**
 * /services/guarantor (sign-in required; PRODUCT.md Guarantor service): the member's deals as
 * buyer or seller with their states, the «Новая сделка» form, and for moderators the queue of
 * disputed deals. The form works without JavaScript and carries an idempotency key made by
 * the loader, so a double submit creates one deal.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, useLocation } from "react-router";
import type { Route } from "./+types/index";
import { DealList } from "~/components/deals/deal-list";
import { NewDealForm } from "~/components/deals/new-deal-form";
import { Pagination } from "~/components/ui/pagination";
import { createDeal, listDealsOf, listDisputedDeals } from "~/domain/deals/deals.server";
import { isModerator } from "~/domain/deals/queries.server";
import { CreateDealFormSchema } from "~/domain/deals/schemas";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { redirectWithToast } from "~/lib/toast.server";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Гарант-сервис");

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
    deals: await listDealsOf(context.db, user.id, parsePageParams(search)),
    disputes: moderator ? await listDisputedDeals(context.db, user.id, { page: 1, perPage: 50 }) : null,
    idempotencyKey: crypto.randomUUID(),
    today: moscowDate(),
    defaultDeadline: moscowDate(7),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const submission = parseWithZod(await pageData(() => readForm(request)), { schema: CreateDealFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    const { idempotencyKey, ...input } = submission.value;
    const deal = await createDeal(context.db, user.id, input, idempotencyKey);
    return redirectWithToast(`/services/guarantor/deals/${deal.id}`, { title: `Сделка №${deal.id} создана`, description: "Ждём, пока вторая сторона её примет." });
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function GuarantorPage({ loaderData, actionData }: Route.ComponentProps) {
  const { deals, disputes, viewerId } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-8">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Гарант-сервис</h1>
        <p className="mt-1 max-w-3xl text-muted-foreground">
          Безопасная сделка: покупатель оплачивает её гаранту, продавец передаёт товар, и только после подтверждения покупателя деньги уходят продавцу. Если
          покупатель не ответит 72 часа после передачи, сделка завершится автоматически. Спорные сделки решают модераторы. Комиссия гаранта — 5 %, минимум 50 ₽.
        </p>
      </div>
      {disputes ? (
        <section className="grid gap-3">
          <h2 className="font-heading text-xl font-bold">Споры на рассмотрении ({disputes.total})</h2>
          <DealList deals={disputes.items} viewerId={viewerId} empty="Открытых споров нет." testId="disputes" />
        </section>
      ) : null}
      <section className="grid gap-3">
        <h2 className="font-heading text-xl font-bold">Мои сделки</h2>
        <DealList deals={deals.items} viewerId={viewerId} empty="Сделок пока нет. Создайте первую ниже." testId="my-deals" />
        <Pagination page={deals.page} totalPages={deals.totalPages} makeHref={(p) => withSearchParam("/services/guarantor", location.search, "page", p)} />
      </section>
      <section className="grid max-w-3xl gap-3 rounded-xl border border-border bg-card p-5">
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
