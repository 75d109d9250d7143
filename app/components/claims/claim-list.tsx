/** Rows of claims for /claims: number, the other party, amount, status and date, each linking to the claim. */
import { Link } from "~/components/ui/link";
import type { ClaimDto } from "~/domain/claims/types";
import { formatKopecks } from "~/domain/ledger/money";
import { formatDate } from "~/lib/format";
import { ClaimParty } from "./claim-party";
import { ClaimStatusBadge } from "./claim-status-badge";

export function ClaimList({ claims, show, empty }: { claims: ClaimDto[]; show: "accused" | "claimant" | "both"; empty: string }) {
  if (claims.length === 0) return <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-3">
      {claims.map((claim) => (
        <li key={claim.id} className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 sm:flex-row sm:items-center" data-testid="claim-row">
          <div className="flex flex-1 flex-wrap items-center gap-4">
            {show !== "accused" ? <ClaimParty member={claim.claimant} label="Заявитель" /> : null}
            {show !== "claimant" ? <ClaimParty member={claim.accused} label="На кого" /> : null}
          </div>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span className="font-semibold tabular-nums">{formatKopecks(claim.amount)}</span>
            <ClaimStatusBadge status={claim.status} />
            <span className="text-muted-foreground">{formatDate(claim.createdAt)}</span>
            <Link to={`/claims/${claim.id}`} className="tap-target font-medium text-primary hover:underline">
              Претензия №{claim.id}
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}
