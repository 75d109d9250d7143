import { Link } from "~/components/ui/link";
import { Avatar } from "~/components/ui/avatar";
import { isScammer, TrustHoverCard, type MemberRef } from "~/components/users/trust-card";
import { formatKopecks } from "~/domain/ledger/money";
import type { DealDto } from "~/domain/deals/types";
import { formatDate } from "~/lib/format";
import { DealStateBadge } from "./deal-state-badge";

/**
 * Deals as rows linking to their pages: number, the viewer's role and counterparty (or both
 * parties for a moderator's queue), amount, state and deadline. The counterparty's avatar carries
 * the scam overlay and opens their trust card on hover (docs/product/interface.md#trust-card); the
 * whole row stays one link, so the avatar links nowhere else (no nested links).
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
        const shown = role === "buyer" ? [deal.seller] : role === "seller" ? [deal.buyer] : [deal.seller, deal.buyer];
        return (
          <li key={deal.id}>
            <Link
              to={`/services/guarantor/deals/${deal.id}`}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-xl border border-border bg-card p-4 transition-colors hover:border-primary/60"
              data-testid="deal-row"
            >
              <span className="font-semibold">Сделка №{deal.id}</span>
              <span className="flex items-center gap-2">
                <span className="flex -space-x-2">
                  {shown.map((member) => (
                    <PartyAvatar key={member.id} member={member} />
                  ))}
                </span>
                <span className={shown.some(isScammer) ? "font-medium text-destructive" : "text-muted-foreground"}>{who}</span>
              </span>
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

/** A party's avatar inside the row's link: the scam overlay, and the trust card on hover. */
function PartyAvatar({ member }: { member: MemberRef }) {
  return (
    <TrustHoverCard member={member}>
      <Avatar username={member.username} src={member.image} size="sm" overlay={isScammer(member) ? "scam" : undefined} />
    </TrustHoverCard>
  );
}
