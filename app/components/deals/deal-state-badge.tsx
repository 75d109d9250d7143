import { Badge, type BadgeProps } from "~/components/ui/badge";
import { DEAL_STATE_LABELS, type DealState } from "~/domain/deals/types";

const VARIANT: Record<DealState, BadgeProps["variant"]> = {
  created: "outline",
  accepted: "secondary",
  funded: "default",
  delivered: "default",
  completed: "success",
  cancelled: "outline",
  disputed: "destructive",
  refunded: "warning",
  split: "warning",
};

/** The state of a deal as a coloured badge («Оплачена», «Спор»…). */
export function DealStateBadge({ state }: { state: DealState }) {
  return (
    <Badge variant={VARIANT[state]} data-testid="deal-state">
      {DEAL_STATE_LABELS[state]}
    </Badge>
  );
}
