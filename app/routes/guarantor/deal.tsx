/**
 * /services/guarantor/deals/{id} (sign-in required; docs/product/deals.md#pages-and-calls): a deal for
 * its parties and moderators — both parties' trust cards (a warning above a SCAMMER counterparty), terms, fee shares, what each side has to do next, the buttons
 * the viewer may press now («Оплатить», «Подтвердить получение», «Согласиться на отмену» and the
 * moderator's resolution confirmed on a second step with the card of who gets the money and what
 * each side receives, docs/product/interface.md#money-confirmations), the dispute form, the moderator's resolution form and the history
 * of transitions. Every form posts here with the loader's idempotency key (per action), so a
 * double submit changes the deal once; a refusal is shown in Russian and changes nothing.
 * When the deal moved on meanwhile (409, e.g. the other party cancelled it), the page reloads
 * and shows the new state and buttons beside the refusal (app/lib/revalidate.ts).
 * Anyone else (and an unknown id) gets the 404 page.
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/deal";
import { DealActions, resolveDefaults } from "~/components/deals/deal-actions";
import { DealHistory } from "~/components/deals/deal-history";
import { DealOverview, DealParties } from "~/components/deals/deal-overview";
import { isScammer, ScamWarning } from "~/components/users/trust-card";
import { getTrustCard } from "~/domain/users/trust-card.server";
import { DealActionPageSchema } from "~/components/deals/schemas";
import { DealActionConfirm, type DealConfirmData } from "~/components/deals/deal-confirm";
import { applyDealAction, getDeal } from "~/domain/deals/deals.server";
import { isConfirmedDealAction, previewDealAction } from "~/domain/deals/preview.server";
import type { DealAction } from "~/domain/deals/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { newIdempotencyKey } from "~/lib/idempotency";
import { pageMeta } from "~/lib/meta";
import { runFormAction } from "~/routes/_shared/money-form.server";
import { revalidateAfterConflict } from "~/lib/revalidate";

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  pageMeta(matches, loaderData ? `Сделка №${loaderData.deal.id}` : "Сделка не найдена");
export const shouldRevalidate = revalidateAfterConflict;

const DONE: Record<DealAction, string> = {
  accept: "Сделка принята",
  cancel: "Сделка отменена",
  fund: "Сделка оплачена: деньги у гаранта",
  deliver: "Передача отмечена",
  confirm: "Получение подтверждено, сделка завершена",
  request_cancel: "Вы предложили отменить сделку",
  agree_cancel: "Сделка отменена, деньги вернулись покупателю",
  dispute: "Спор открыт",
  resolve: "Решение по спору вынесено",
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const deal = await pageData(() => getDeal(context.db, user.id, Number(params.id)));
  // The parties' trust cards, server-rendered so they show without JavaScript (docs/product/interface.md#trust-card).
  const [buyer, seller] = await Promise.all([getTrustCard(context.db, deal.buyer.id), getTrustCard(context.db, deal.seller.id)]);
  return { deal, parties: { buyer, seller }, viewerId: user.id, idempotencyKey: newIdempotencyKey() };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return runFormAction(context, request, {
    schema: DealActionPageSchema,
    async perform(user, { intent: action, key, confirmed, ...input }) {
      if (isConfirmedDealAction(action) && !confirmed) {
        // The confirmation step (docs/product/interface.md#money-confirmations): who gets the money, what moves; nothing moved.
        const preview = await previewDealAction(context.db, user.id, Number(params.id), action, input);
        return { show: { dealPreview: { ...preview, card: await getTrustCard(context.db, preview.counterparty.id) }, key } };
      }
      // One key per action of this page view: a double submit replays, another button is its own request.
      const deal = await applyDealAction(context.db, user.id, Number(params.id), action, input, `${key}:${action}`);
      return { redirectTo: `/services/guarantor/deals/${deal.id}`, toast: { title: DONE[action] } };
    },
  });
}

export default function DealPage({ loaderData, actionData }: Route.ComponentProps) {
  const { deal, parties, viewerId, idempotencyKey } = loaderData;
  const confirm = actionData && "dealPreview" in actionData ? (actionData as unknown as DealConfirmData) : null;
  const location = useLocation();
  const scammers = [parties.buyer, parties.seller].filter((party) => party.id !== viewerId && isScammer(party));
  return (
    <div className="grid max-w-3xl gap-8">
      <div>
        <Link to="/services/guarantor" className="text-sm text-primary hover:underline">
          ← Гарант-сервис
        </Link>
        <h1 className="mt-2 font-heading text-3xl font-extrabold">Сделка №{deal.id}</h1>
      </div>
      {scammers.map((party) => (
        <ScamWarning key={party.id} username={party.username} />
      ))}
      <DealParties buyer={parties.buyer} seller={parties.seller} />
      <DealOverview deal={deal} />
      {confirm ? (
        <DealActionConfirm action={`/services/guarantor/deals/${deal.id}`} preview={confirm.dealPreview} formKey={confirm.key} />
      ) : (
        <DealActions
          key={location.search}
          action={`/services/guarantor/deals/${deal.id}`}
          deal={deal}
          idempotencyKey={idempotencyKey}
          last={actionData ?? null}
          resolveDefaults={resolveDefaults(new URLSearchParams(location.search))}
        />
      )}
      <section className="grid gap-3">
        <h2 className="font-heading text-xl font-bold">История</h2>
        <DealHistory transitions={deal.transitions} />
      </section>
    </div>
  );
}
