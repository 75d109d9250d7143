/**
 * The claims and deals of one member on /admin/members/:id (docs/product/moderation.md#admin-pages):
 * claims filed against them and by them, deals as buyer or seller — each a link to its page, with
 * its state, sum and the other party (a link to their own member page).
 */
import { Link } from "~/components/ui/link";
import { CLAIM_STATUS_LABELS, type ClaimDto } from "~/domain/claims/types";
import { DEAL_STATE_LABELS, type DealDto } from "~/domain/deals/types";
import { formatKopecks } from "~/domain/ledger/money";
import { formatCount, formatDate } from "~/lib/format";
import type { Page } from "~/lib/pagination";

function MemberLink({ member }: { member: { id: number; username: string } }) {
  return (
    <Link to={`/admin/members/${member.id}`} className="font-medium text-primary hover:underline">
      {member.username}
    </Link>
  );
}

/** «Последние 10 из 14» under a list cut to its first page. */
function More({ page }: { page: Page<unknown> }) {
  if (page.total <= page.items.length) return null;
  return (
    <p className="text-xs text-muted-foreground">
      Показаны последние {formatCount(page.items.length)} из {formatCount(page.total)}
    </p>
  );
}

function ClaimList({ page, side, empty, testId }: { page: Page<ClaimDto>; side: "against" | "filed"; empty: string; testId: string }) {
  if (page.items.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <>
      <ul className="grid gap-1 text-sm" data-testid={testId}>
        {page.items.map((claim) => (
          <li key={claim.id}>
            <Link to={`/claims/${claim.id}`} className="text-primary hover:underline">
              Претензия №{claim.id}
            </Link>{" "}
            {side === "against" ? "от " : "против "}
            <MemberLink member={side === "against" ? claim.claimant : claim.accused} /> — {formatKopecks(claim.amount)},{" "}
            {CLAIM_STATUS_LABELS[claim.status].toLowerCase()}, {formatDate(claim.createdAt)}
          </li>
        ))}
      </ul>
      <More page={page} />
    </>
  );
}

/** Claims against the member and filed by them. */
export function MemberClaims({ against, filed }: { against: Page<ClaimDto>; filed: Page<ClaimDto> }) {
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold">Против участника ({formatCount(against.total)})</h3>
        <ClaimList page={against} side="against" empty="Претензий против участника нет." testId="member-claims-against" />
      </div>
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold">Подал участник ({formatCount(filed.total)})</h3>
        <ClaimList page={filed} side="filed" empty="Участник претензий не подавал." testId="member-claims-filed" />
      </div>
    </div>
  );
}

/** The member's deals, as buyer or seller, newest first. */
export function MemberDeals({ memberId, deals }: { memberId: number; deals: Page<DealDto> }) {
  if (deals.items.length === 0) return <p className="text-sm text-muted-foreground">Сделок нет.</p>;
  return (
    <>
      <ul className="grid gap-1 text-sm" data-testid="member-deals">
        {deals.items.map((deal) => {
          const buying = deal.buyer.id === memberId;
          return (
            <li key={deal.id}>
              <Link to={`/services/guarantor/deals/${deal.id}`} className="text-primary hover:underline">
                Сделка №{deal.id}
              </Link>{" "}
              — {buying ? "покупатель, продавец" : "продавец, покупатель"} <MemberLink member={buying ? deal.seller : deal.buyer} />,{" "}
              {formatKopecks(deal.amount)}, {DEAL_STATE_LABELS[deal.state].toLowerCase()}, {formatDate(deal.createdAt)}
            </li>
          );
        })}
      </ul>
      <More page={deals} />
    </>
  );
}
