/**
 * The confirmation step of upholding a claim with compensation (docs/product/interface.md#money-confirmations;
 * a second page without JavaScript): the claimant's trust card (who gets the money), the
 * compensation, the accused's deposit after and the claimant's balance after. «Подтвердить»
 * posts the decision again with `confirmed=1` and the same key; «Изменить» goes back to the form
 * with the decision, the note and the compensation in the query.
 */
import { ConfirmStep, roublesValue } from "~/components/wallet/confirm-step";
import type { ClaimDecisionPreview } from "~/domain/claims/decision-preview.server";
import { formatKopecks } from "~/domain/ledger/money";
import type { TrustCardDto } from "~/domain/users/trust-card.server";

/** What the decision shows on the confirmation step, with the form's idempotency key. */
export interface ClaimConfirmData {
  claimPreview: ClaimDecisionPreview & { card: TrustCardDto };
  key: string;
}

export function ClaimDecisionConfirm({ preview, formKey }: { preview: ClaimConfirmData["claimPreview"]; formKey: string }) {
  const action = `/claims/${preview.claimId}`;
  const fields = { decision: "uphold", note: preview.note, compensation: roublesValue(preview.compensation) };
  return (
    <section className="grid gap-4 rounded-2xl border border-border bg-card p-6" aria-labelledby="claim-confirm-title">
      <h2 id="claim-confirm-title" className="font-heading text-xl font-bold">
        Решение модератора
      </h2>
      <ConfirmStep
        title="Проверьте: претензия будет удовлетворена, компенсация уйдёт заявителю"
        testId="claim-confirm"
        party={{ label: "Заявитель получит", card: preview.card }}
        rows={[
          { label: "Сумма претензии", value: formatKopecks(preview.amount) },
          { label: "Компенсация", value: formatKopecks(preview.compensation), testId: "confirm-amount" },
          { label: "Комиссия", value: "нет" },
          { label: `Депозит ${preview.accused.username} станет`, value: formatKopecks(preview.depositAfter), testId: "confirm-deposit-after" },
          { label: "Баланс заявителя станет", value: formatKopecks(preview.claimantBalanceAfter), testId: "confirm-balance-after" },
          { label: "Причина решения", value: preview.note },
        ]}
        note={`${preview.accused.username} получит ранг «Мошенник» и попадёт в чёрный список. Решение окончательное.`}
        intent="decide"
        formKey={formKey}
        fields={fields}
        action={action}
        backTo={`${action}?${new URLSearchParams(fields).toString()}`}
      />
    </section>
  );
}
