/**
 * What the deal pages, the /api/guarantor routes and the domain share about guarantor deals
 * (docs/product/deals.md): the public shapes (amounts in kopecks, times as ISO strings)
 * and the Russian labels of states and actions. No server imports: the browser uses it too.
 */
import type { DealFeePayer, DealState } from "~/db/schema-trust";
import type { MemberBadgeDto } from "~/domain/users/member-badge.server";

export type { DealFeePayer, DealState };

/** What a party or a moderator may do to a deal (the state machine of rules.ts). */
export const DEAL_ACTIONS = ["accept", "cancel", "fund", "deliver", "confirm", "request_cancel", "agree_cancel", "dispute", "resolve"] as const;
export type DealAction = (typeof DEAL_ACTIONS)[number];
/** What a transition row records: an action, the creation, or the scheduler's completion. */
export type DealActionKind = DealAction | "create" | "auto_complete";
/** How a moderator settles a dispute: all to the seller, all back to the buyer, or shared. */
export const DEAL_RESOLUTIONS = ["release", "refund", "split"] as const;
export type DealResolution = (typeof DEAL_RESOLUTIONS)[number];
export type DealRole = "buyer" | "seller";

export interface DealPartyDto {
  id: number;
  username: string;
}

/** A buyer or seller: with picture and ranks, so lists show the scam overlay and open the trust card (docs/product/interface.md#trust-card). */
export type DealMemberDto = MemberBadgeDto;

/** A deal as its parties and moderators see it. Amounts in kopecks; times ISO 8601. */
export interface DealDto {
  id: number;
  buyer: DealMemberDto;
  seller: DealMemberDto;
  /** The party who proposed the deal; the other one accepts it. */
  createdById: number;
  amount: number;
  /** The whole fee: max(5 % of amount, 50 ₽). */
  fee: number;
  feePayer: DealFeePayer;
  /** Paid by the buyer on top of the amount when funding. */
  buyerFee: number;
  /** Kept from the seller's payout. */
  sellerFee: number;
  description: string;
  deadline: string;
  state: DealState;
  fundedAt: string | null;
  deliveredAt: string | null;
  /** While delivered: when the deal completes by itself (delivered + 72 h). */
  autoCompleteAt: string | null;
  /** After funding: the party who asked to cancel (the other one may agree). */
  cancelRequestedBy: number | null;
  disputedBy: number | null;
  disputeReason: string | null;
  /** A split's kopecks of `amount` paid to the seller. */
  sellerShare: number | null;
  resolvedBy: DealPartyDto | null;
  resolutionNote: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One recorded transition (docs/product/deals.md#transition-log: who, when, from-state, to-state). */
export interface DealTransitionDto {
  id: number;
  /** Null for the automatic completion by the scheduler. */
  actor: DealPartyDto | null;
  action: DealActionKind;
  fromState: DealState;
  toState: DealState;
  /** The dispute's reason or the moderator's resolution note. */
  note: string | null;
  createdAt: string;
}

/** A deal with its history and what the viewer may do now. */
export interface DealDetailDto extends DealDto {
  transitions: DealTransitionDto[];
  viewer: {
    /** "moderator" only for a moderator who is not a party. */
    role: DealRole | "moderator";
    actions: DealAction[];
  };
}

export const DEAL_STATE_LABELS: Record<DealState, string> = {
  created: "Создана",
  accepted: "Принята",
  funded: "Оплачена",
  delivered: "Передано",
  completed: "Завершена",
  cancelled: "Отменена",
  disputed: "Спор",
  refunded: "Возврат",
  split: "Разделена",
};

export const DEAL_ACTION_LABELS: Record<DealActionKind, string> = {
  create: "Создание сделки",
  accept: "Принять сделку",
  cancel: "Отменить сделку",
  fund: "Оплатить",
  deliver: "Отметить передачу",
  confirm: "Подтвердить получение",
  request_cancel: "Предложить отмену",
  agree_cancel: "Согласиться на отмену",
  dispute: "Открыть спор",
  resolve: "Решение модератора",
  auto_complete: "Автоматическое завершение",
};

/** How a recorded transition reads in the deal's history. */
export const DEAL_HISTORY_LABELS: Record<DealActionKind, string> = {
  create: "Создание сделки",
  accept: "Принятие",
  cancel: "Отмена",
  fund: "Оплата",
  deliver: "Передача товара",
  confirm: "Подтверждение получения",
  request_cancel: "Предложение отмены",
  agree_cancel: "Согласие на отмену",
  dispute: "Спор открыт",
  resolve: "Решение модератора",
  auto_complete: "Автоматическое завершение",
};

export const DEAL_RESOLUTION_LABELS: Record<DealResolution, string> = {
  release: "Выплатить продавцу",
  refund: "Вернуть покупателю",
  split: "Разделить сумму",
};

export const DEAL_FEE_PAYER_LABELS: Record<DealFeePayer, string> = {
  buyer: "Покупатель",
  seller: "Продавец",
  split: "Пополам",
};

/** Final states: no action applies any more. */
export const FINAL_DEAL_STATES: readonly DealState[] = ["completed", "cancelled", "refunded", "split"];
