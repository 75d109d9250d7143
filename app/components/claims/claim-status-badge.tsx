import { Badge } from "~/components/ui/badge";
import { CLAIM_STATUS_LABELS, type ClaimStatus } from "~/domain/claims/types";

const VARIANTS = { open: "warning", upheld: "destructive", rejected: "secondary" } as const;

/** «На рассмотрении», «Удовлетворена» or «Отклонена». */
export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  return (
    <Badge variant={VARIANTS[status]} data-testid="claim-status">
      {CLAIM_STATUS_LABELS[status]}
    </Badge>
  );
}
