import { Link } from "react-router";
import { formatKopecks } from "~/domain/ledger/money";
import type { DealDto } from "~/domain/deals/types";
import { formatDate } from "~/lib/format";
import { DealStateBadge } from "./deal-state-badge";

/**
 * Deals as rows linking to their pages: number, the viewer's role and counterparty (or both
 * parties for a moderator's queue), amount, state and deadline.
 */
export function DealList({ deals, viewerId, empty, testId }: { deals: DealDto[]; viewerId: number; empty: string; testId?: string }) {
  if (deals.length === 0) return <p className="rounded-xl border border-dashed border-border p-8 text-center text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-2" data-testid={testId}>
      {deals.map((deal) => {
        const role = deal.buyer.id === viewerId ? "buyer" : deal.seller.id === viewerId ? "seller" : null;
        const who =
          role === "buyer"
            ? `Покупаю у ${deal.seller.username}`
            : role === "seller"
              ? `Продаю ${deal.buyer.username}`
              : `${deal.seller.username} → ${deal.buyer.username}`;
        return (
          <li key={deal.id}>
            <Link
              to={`/services/guarantor/deals/${deal.id}`}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-xl border border-border bg-card p-4 transition-colors hover:border-primary/60"
              data-testid="deal-row"
            >
              <span className="font-semibold">Сделка №{deal.id}</span>
              <span className="text-muted-foreground">{who}</span>
              <span className="font-semibold tabular-nums">{formatKopecks(deal.amount)}</span>
              <DealStateBadge state={deal.state} />
              <span className="ml-auto text-sm text-muted-foreground">до {formatDate(deal.deadline)}</span>
              <span className="basis-full truncate text-sm text-muted-foreground">{deal.description}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
