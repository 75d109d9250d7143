/**
 * /services/guarantor/deals/{id} (sign-in required; PRODUCT.md Guarantor service): a deal for
 * its parties and moderators — terms, fee shares, what each side has to do next, the buttons
 * the viewer may press now, the dispute form, the moderator's resolution form and the history
 * of transitions. Every form posts here with the loader's idempotency key (per action), so a
 * double submit changes the deal once; a refusal is shown in Russian and changes nothing.
 * Anyone else (and an unknown id) gets the 404 page.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import type { Route } from "./+types/deal";
import { DealActions } from "~/components/deals/deal-actions";
import { DealHistory } from "~/components/deals/deal-history";
import { DealOverview } from "~/components/deals/deal-overview";
import { applyDealAction, getDeal } from "~/domain/deals/deals.server";
import { DealActionFormSchema } from "~/domain/deals/schemas";
import type { DealAction } from "~/domain/deals/types";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Сделка №${params.id}`);

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
  return { deal, idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await pageData(() => readForm(request));
  const intent = typeof form.get("intent") === "string" ? String(form.get("intent")) : null;
  const submission = parseWithZod(form, { schema: DealActionFormSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    const { intent: action, idempotencyKey, ...input } = submission.value;
    // One key per action of this page view: a double submit replays, another button is its own request.
    const deal = await applyDealAction(context.db, user.id, Number(params.id), action, input, `${idempotencyKey}:${action}`);
    return redirectWithToast(`/services/guarantor/deals/${deal.id}`, { title: DONE[action] });
  } catch (error) {
    const refused = replyWithError(submission, error);
    return data({ intent, result: refused.data.result }, refused.init ?? undefined);
  }
}

export default function DealPage({ loaderData, actionData }: Route.ComponentProps) {
  const { deal, idempotencyKey } = loaderData;
  return (
    <div className="grid max-w-3xl gap-8">
      <div>
        <Link to="/services/guarantor" className="text-sm text-primary hover:underline">
          ← Гарант-сервис
        </Link>
        <h1 className="mt-2 font-heading text-3xl font-extrabold">Сделка №{deal.id}</h1>
      </div>
      <DealOverview deal={deal} />
      <DealActions action={`/services/guarantor/deals/${deal.id}`} deal={deal} idempotencyKey={idempotencyKey} last={actionData ?? null} />
      <section className="grid gap-3">
        <h2 className="font-heading text-xl font-bold">История</h2>
        <DealHistory transitions={deal.transitions} />
      </section>
    </div>
  );
}
