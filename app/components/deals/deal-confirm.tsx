/**
 * The confirmation step of the deal actions that move money (docs/product/interface.md#money-confirmations;
 * a second page without JavaScript): «Оплатить» shows the seller's trust card, the deal's amount,
 * the buyer's fee share, what leaves the balance for the guarantor and the balance after;
 * «Подтвердить получение» shows what the seller is paid now, their fee share, and that the
 * buyer's balance stays; «Согласиться на отмену» shows the buyer's card and the refund; the
 * moderator's resolution shows who gets what (seller, buyer, platform fee). «Подтвердить» posts
 * the action again with `confirmed=1`, the same key and the resolution's values; «Изменить»
 * goes back to the deal with the resolution's values in the query.
 */
import { ConfirmStep, roublesValue, type ConfirmRow } from "~/components/wallet/confirm-step";
import type { DealActionPreview } from "~/domain/deals/preview.server";
import { DEAL_RESOLUTION_LABELS } from "~/domain/deals/types";
import { formatKopecks } from "~/domain/ledger/money";
import type { TrustCardDto } from "~/domain/users/trust-card.server";

/** What the deal action shows on the confirmation step, with the page's idempotency key. */
export interface DealConfirmData {
  dealPreview: DealActionPreview & { card: TrustCardDto };
  key: string;
}

const HEADINGS: Record<DealActionPreview["action"], string> = {
  fund: "Оплата сделки",
  confirm: "Подтверждение получения",
  agree_cancel: "Отмена сделки",
  resolve: "Решение по спору",
};

const TITLES: Record<DealActionPreview["action"], string> = {
  fund: "Проверьте оплату: деньги будут у гаранта до подтверждения получения",
  confirm: "Проверьте: после подтверждения деньги уйдут продавцу",
  agree_cancel: "Проверьте: сделка будет отменена, деньги вернутся покупателю",
  resolve: "Проверьте, кому уйдут деньги по решению",
};

function rowsOf(preview: DealActionPreview): ConfirmRow[] {
  const fee = preview.fee > 0 ? formatKopecks(preview.fee) : "нет";
  switch (preview.action) {
    case "fund":
      return [
        { label: "Сумма сделки", value: formatKopecks(preview.amount) },
        { label: "Ваша часть комиссии", value: fee },
        { label: "Спишется с баланса", value: formatKopecks(preview.moved), testId: "confirm-amount" },
        { label: "Останется на балансе", value: formatKopecks(preview.balanceAfter), testId: "confirm-balance-after" },
      ];
    case "confirm":
      return [
        { label: "Сумма сделки", value: formatKopecks(preview.amount) },
        { label: "Комиссия продавца", value: fee },
        { label: "Продавец получит", value: formatKopecks(preview.moved), testId: "confirm-amount" },
        { label: "Ваш баланс", value: formatKopecks(preview.balanceAfter), testId: "confirm-balance-after" },
      ];
    case "agree_cancel":
      return [
        { label: "Сумма сделки", value: formatKopecks(preview.amount) },
        { label: "Комиссия", value: "не берётся" },
        { label: `Вернётся покупателю (${preview.buyer.username})`, value: formatKopecks(preview.toBuyer), testId: "confirm-amount" },
        { label: "Ваш баланс станет", value: formatKopecks(preview.balanceAfter), testId: "confirm-balance-after" },
      ];
    case "resolve":
      return [
        { label: "Решение", value: preview.resolution ? DEAL_RESOLUTION_LABELS[preview.resolution] : "" },
        { label: "Сумма сделки", value: formatKopecks(preview.amount) },
        { label: `Продавцу (${preview.seller.username})`, value: formatKopecks(preview.toSeller), testId: "confirm-to-seller" },
        { label: `Покупателю (${preview.buyer.username})`, value: formatKopecks(preview.toBuyer), testId: "confirm-to-buyer" },
        { label: "Комиссия площадки", value: fee },
        ...(preview.note ? [{ label: "Пояснение", value: preview.note }] : []),
      ];
  }
}

const NOTES: Partial<Record<DealActionPreview["action"], string>> = {
  confirm: "Вернуть деньги после подтверждения будет нельзя. Ваш баланс не изменится: сделка оплачена раньше.",
  agree_cancel: "Сделка закроется без передачи; вернуть её будет нельзя.",
  resolve: "Решение окончательное: деньги уйдут сторонам сразу.",
};

export function DealActionConfirm({ action, preview, formKey }: { action: string; preview: DealConfirmData["dealPreview"]; formKey: string }) {
  const resolve = preview.action === "resolve";
  const fields: Record<string, string> = {};
  if (resolve) {
    fields.resolution = preview.resolution ?? "";
    fields.note = preview.note ?? "";
    if (preview.sellerShare !== null) fields.sellerShare = roublesValue(preview.sellerShare);
  }
  const back = new URLSearchParams(fields);
  const partyLabel = preview.counterparty.id === preview.buyer.id ? "Покупатель" : "Продавец";
  return (
    <section className="grid gap-4" aria-labelledby="deal-confirm-title">
      <h2 id="deal-confirm-title" className="font-heading text-xl font-bold">
        {HEADINGS[preview.action]}
      </h2>
      <ConfirmStep
        title={TITLES[preview.action]}
        testId="deal-confirm"
        party={{ label: partyLabel, card: preview.card }}
        rows={rowsOf(preview)}
        note={NOTES[preview.action]}
        intent={preview.action}
        formKey={formKey}
        fields={fields}
        action={action}
        backTo={resolve ? `${action}?${back.toString()}` : action}
      />
    </section>
  );
}
