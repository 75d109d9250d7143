import { DEAL_FEE_PAYER_LABELS, type DealDetailDto } from "~/domain/deals/types";
import { formatKopecks } from "~/domain/ledger/money";
import { formatDate, formatDateTime } from "~/lib/format";
import { TrustCard } from "~/components/users/trust-card-body";
import type { TrustCardDto } from "~/domain/users/trust-card.server";
import { DealStateBadge } from "./deal-state-badge";

/** What the viewer (a party or a moderator) has to know or do next, in one or two sentences. */
export function nextStep(deal: DealDetailDto): string {
  const role = deal.viewer.role;
  const other = role === "buyer" ? deal.seller.username : deal.buyer.username;
  const toPay = formatKopecks(deal.amount + deal.buyerFee);
  const cancelAsked =
    deal.cancelRequestedBy === null
      ? ""
      : role !== "moderator" && deal.cancelRequestedBy !== (role === "buyer" ? deal.buyer.id : deal.seller.id)
        ? ` ${other} предлагает отменить сделку и вернуть деньги покупателю.`
        : " Отмена предложена, ждём согласия другой стороны.";
  switch (deal.state) {
    case "created":
      if (role === "moderator") return "Сделка ждёт принятия второй стороной.";
      return deal.viewer.actions.includes("accept") ? "Проверьте условия и примите сделку — или отмените её." : `Ждём, пока ${other} примет сделку.`;
    case "accepted":
      if (role === "buyer") return `Оплатите сделку: с баланса спишется ${toPay}. Деньги будут у гаранта, пока вы не подтвердите получение.`;
      if (role === "seller") return "Ждём оплаты от покупателя. Не передавайте товар, пока сделка не оплачена.";
      return "Ждём оплаты от покупателя.";
    case "funded":
      if (role === "seller") return `Деньги у гаранта. Передайте товар и отметьте передачу.${cancelAsked}`;
      return `Деньги у гаранта. Ждём, пока продавец передаст товар.${cancelAsked}`;
    case "delivered": {
      const auto = deal.autoCompleteAt ? formatDateTime(deal.autoCompleteAt) : "";
      if (role === "buyer")
        return `Продавец отметил передачу. Проверьте товар и подтвердите получение — или откройте спор. Без ответа сделка завершится автоматически ${auto}.${cancelAsked}`;
      return `Ждём подтверждения покупателя; без ответа сделка завершится автоматически ${auto}.${cancelAsked}`;
    }
    case "disputed":
      return role === "moderator" ? "Открыт спор: изучите его и примите решение." : "Открыт спор. Модератор изучит его и примет решение.";
    case "completed":
      return `Сделка завершена: продавец получил ${formatKopecks(deal.amount - deal.sellerFee)}.`;
    case "cancelled":
      return "Сделка отменена до оплаты.";
    case "refunded":
      return `Деньги (${toPay}) возвращены покупателю.`;
    case "split":
      return `Модератор разделил сумму: продавцу ${formatKopecks(deal.sellerShare ?? 0)}, покупателю ${formatKopecks(deal.amount - (deal.sellerShare ?? 0) + deal.buyerFee)}.`;
  }
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-1.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/**
 * The buyer and the seller as trust cards (docs/product/interface.md#trust-card): avatar, ranks,
 * deposit, completed deals, claims and the profile link; the loader brings the figures.
 */
export function DealParties({ buyer, seller }: { buyer: TrustCardDto; seller: TrustCardDto }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {(
        [
          ["Покупатель", buyer, "deal-buyer"],
          ["Продавец", seller, "deal-seller"],
        ] as const
      ).map(([label, party, testId]) => (
        <section key={testId} className="grid content-start gap-2 rounded-xl border border-border bg-card p-4" aria-label={label} data-testid={testId}>
          <h2 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{label}</h2>
          <TrustCard member={party} card={party} />
        </section>
      ))}
    </div>
  );
}

/** The deal's terms: amounts and fee shares, deadline, state and the next step. */
export function DealOverview({ deal }: { deal: DealDetailDto }) {
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <DealStateBadge state={deal.state} />
        <p className="text-sm" data-testid="deal-next-step">
          {nextStep(deal)}
        </p>
      </div>
      <dl className="divide-y divide-border text-sm">
        <Row label="Сумма" testId="deal-amount">
          {formatKopecks(deal.amount)}
        </Row>
        <Row label="Комиссия гаранта">
          {formatKopecks(deal.fee)} · платит: {DEAL_FEE_PAYER_LABELS[deal.feePayer].toLowerCase()} (покупатель {formatKopecks(deal.buyerFee)}, продавец{" "}
          {formatKopecks(deal.sellerFee)})
        </Row>
        <Row label="Покупатель платит">{formatKopecks(deal.amount + deal.buyerFee)}</Row>
        <Row label="Продавец получит">{formatKopecks(deal.amount - deal.sellerFee)}</Row>
        <Row label="Срок передачи">{formatDate(deal.deadline)}</Row>
        <Row label="Условия">
          <span className="whitespace-pre-wrap">{deal.description}</span>
        </Row>
        {deal.disputeReason ? (
          <Row label="Причина спора">
            <span className="whitespace-pre-wrap">{deal.disputeReason}</span>
          </Row>
        ) : null}
        {deal.resolutionNote ? (
          <Row label="Решение модератора">
            <span className="whitespace-pre-wrap">
              {deal.resolvedBy?.username}: {deal.resolutionNote}
            </span>
          </Row>
        ) : null}
      </dl>
    </div>
  );
}
