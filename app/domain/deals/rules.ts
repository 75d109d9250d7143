/**
 * The state machine of a guarantor deal (docs/product/deals.md#actions), pure so the server
 * enforces it and the deal page shows exactly the buttons it would accept:
 *
 *   created ─accept (the party who did not create it)→ accepted ─fund (buyer)→ funded
 *   funded ─deliver (seller)→ delivered ─confirm (buyer) or 72 h→ completed
 *   created | accepted ─cancel (either party)→ cancelled
 *   funded | delivered ─request_cancel (one party), agree_cancel (the other)→ refunded
 *     (a request holds only in the state it was made in: any change of state withdraws it,
 *     deals.server.ts clears cancel_requested_by, so a request made while funded cannot be
 *     agreed to after delivery)
 *   funded | delivered ─dispute (either party)→ disputed ─resolve (moderator, not a party)→
 *     completed (release) | refunded (refund) | split (split)
 */
import { DEAL_ACTION_LABELS, DEAL_ACTIONS, DEAL_STATE_LABELS, type DealAction, type DealResolution, type DealState } from "./types";

/** The fields of a deal the rules look at. */
export interface DealRuleView {
  state: DealState;
  buyerId: number;
  sellerId: number;
  createdById: number;
  cancelRequestedBy: number | null;
}

/** Why an action is refused: "forbidden" (wrong person, 403) or "conflict" (wrong state now, 409). */
export interface DealRefusal {
  kind: "forbidden" | "conflict";
  code: string;
  message: string;
}

/** The states each action starts from. */
const FROM: Record<DealAction, readonly DealState[]> = {
  accept: ["created"],
  cancel: ["created", "accepted"],
  fund: ["accepted"],
  deliver: ["funded"],
  confirm: ["delivered"],
  request_cancel: ["funded", "delivered"],
  agree_cancel: ["funded", "delivered"],
  dispute: ["funded", "delivered"],
  resolve: ["disputed"],
};

/** The state a resolution leads to. */
export const RESOLUTION_STATE: Record<DealResolution, DealState> = { release: "completed", refund: "refunded", split: "split" };

/**
 * Whether `actorId` (a moderator when `isModerator`) may apply `action` to `deal` now: null when
 * allowed, else the refusal with a stable code and a Russian message. Codes: forbidden
 * `not_a_party`, `not_moderator`, `own_deal`, `creator_cannot_accept`, `buyer_only`,
 * `seller_only`; conflict `deal_state_changed`, `cancel_already_requested`, `no_cancel_request`.
 * The caller answers NotFound to someone who is neither a party nor a moderator.
 */
export function checkDealAction(deal: DealRuleView, actorId: number, isModerator: boolean, action: DealAction): DealRefusal | null {
  const isParty = actorId === deal.buyerId || actorId === deal.sellerId;
  if (action === "resolve") {
    if (isParty) return forbidden("own_deal", "Участник сделки не может решать спор по ней");
    if (!isModerator) return forbidden("not_moderator", "Решать споры может только модератор");
  } else if (!isParty) {
    return forbidden("not_a_party", "Это действие доступно только участникам сделки");
  }
  if (action === "accept" && actorId === deal.createdById) return forbidden("creator_cannot_accept", "Сделку принимает другая сторона");
  if ((action === "fund" || action === "confirm") && actorId !== deal.buyerId) {
    return forbidden("buyer_only", action === "fund" ? "Оплачивает сделку покупатель" : "Получение подтверждает покупатель");
  }
  if (action === "deliver" && actorId !== deal.sellerId) return forbidden("seller_only", "Передачу отмечает продавец");
  if (!FROM[action].includes(deal.state)) {
    return {
      kind: "conflict",
      code: "deal_state_changed",
      message: `Сделка уже в состоянии «${DEAL_STATE_LABELS[deal.state]}»: действие «${DEAL_ACTION_LABELS[action]}» недоступно. Обновите страницу.`,
    };
  }
  if (action === "request_cancel" && deal.cancelRequestedBy !== null) {
    return {
      kind: "conflict",
      code: "cancel_already_requested",
      message:
        deal.cancelRequestedBy === actorId
          ? "Вы уже предложили отмену, ждём ответа другой стороны"
          : "Другая сторона уже предложила отмену — вы можете согласиться",
    };
  }
  if (action === "agree_cancel" && (deal.cancelRequestedBy === null || deal.cancelRequestedBy === actorId)) {
    return { kind: "conflict", code: "no_cancel_request", message: "Согласиться можно только с отменой, которую предложила другая сторона" };
  }
  return null;
}

/** The actions `actorId` may apply to `deal` now, in the state machine's order (the deal page's buttons). */
export function availableDealActions(deal: DealRuleView, actorId: number, isModerator: boolean): DealAction[] {
  return DEAL_ACTIONS.filter((action) => checkDealAction(deal, actorId, isModerator, action) === null);
}

/** The state `action` leads to (resolve: by `resolution`; request_cancel keeps the state). */
export function nextDealState(deal: DealRuleView, action: DealAction, resolution?: DealResolution): DealState {
  switch (action) {
    case "accept":
      return "accepted";
    case "cancel":
      return "cancelled";
    case "fund":
      return "funded";
    case "deliver":
      return "delivered";
    case "confirm":
      return "completed";
    case "request_cancel":
      return deal.state;
    case "agree_cancel":
      return "refunded";
    case "dispute":
      return "disputed";
    case "resolve":
      return RESOLUTION_STATE[resolution ?? "release"];
  }
}

function forbidden(code: string, message: string): DealRefusal {
  return { kind: "forbidden", code, message };
}
