/**
 * The confirmation step of a deal action that moves money (docs/product/interface.md#money-confirmations):
 * the buyer's «Оплатить» (funding: amount + buyer's fee share into escrow), «Подтвердить
 * получение» (completion: amount − seller's fee share to the seller, the fee to the platform),
 * «Согласиться на отмену» (the escrow back to the buyer) and the moderator's resolution of a
 * dispute (release, refund or split) — docs/product/money.md#recipe-deal-funding and
 * #recipe-deal-completion. The same checks applyDealAction makes (without its lock), and nothing
 * moves; applyDealAction checks again.
 */
import type { Db } from "~/db/client.server";
import { memberBalances } from "~/domain/ledger/ledger.server";
import { formatKopecks } from "~/domain/ledger/money";
import { isModeratorById } from "~/domain/users/roles.server";
import { Conflict, Forbidden, InsufficientFunds } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { actionRequest, invalid, type DealActionInput } from "./deals.server";
import { dealNotFound, loadDealDto } from "./queries.server";
import { checkDealAction } from "./rules";
import type { DealAction, DealDto, DealMemberDto, DealResolution } from "./types";

/** The deal actions that move money and so are confirmed first. */
export const CONFIRMED_DEAL_ACTIONS = ["fund", "confirm", "agree_cancel", "resolve"] as const satisfies readonly DealAction[];
export type ConfirmedDealAction = (typeof CONFIRMED_DEAL_ACTIONS)[number];

/** Whether `action` is confirmed on a second step before it runs. */
export function isConfirmedDealAction(action: DealAction): action is ConfirmedDealAction {
  return (CONFIRMED_DEAL_ACTIONS as readonly DealAction[]).includes(action);
}

/** What a fund, confirm, agree_cancel or resolve would move. Kopecks. */
export interface DealActionPreview {
  dealId: number;
  action: ConfirmedDealAction;
  description: string;
  /** Who gets the money in the end: the seller (fund, confirm, a release or a split), the buyer (a refund). */
  counterparty: DealMemberDto;
  buyer: DealMemberDto;
  seller: DealMemberDto;
  /** The deal's amount. */
  amount: number;
  /** fund: the buyer's share of the fee, paid on top; otherwise the fee the platform keeps (none on a refund or a split). */
  fee: number;
  /** fund: amount + fee leaving the buyer's balance for escrow; otherwise what leaves escrow for the parties. */
  moved: number;
  /** What the seller and the buyer receive from escrow (0 for fund). */
  toSeller: number;
  toBuyer: number;
  /** resolve: the decision, the seller's share of a split and the note, posted again on «Подтвердить». */
  resolution: DealResolution | null;
  sellerShare: number | null;
  note: string | null;
  /** The actor's available balance now and after (a moderator's stays the same). */
  balanceBefore: number;
  balanceAfter: number;
}

/** What leaves escrow for each side when the deal ends as `outcome` (docs/product/money.md#recipes). */
function settlement(deal: DealDto, outcome: "completed" | "refunded" | "split", sellerShare: number) {
  if (outcome === "completed") return { toSeller: deal.amount - deal.sellerFee, toBuyer: 0, fee: deal.fee };
  if (outcome === "refunded") return { toSeller: 0, toBuyer: deal.amount + deal.buyerFee, fee: 0 };
  return { toSeller: sellerShare, toBuyer: deal.amount - sellerShare + deal.buyerFee, fee: 0 };
}

const OUTCOME: Record<DealResolution, "completed" | "refunded" | "split"> = { release: "completed", refund: "refunded", split: "split" };

/**
 * The confirmation step of `action` by `actorId` on deal `dealId`, with `input` (resolve: the
 * resolution, the seller's share of a split in kopecks, the note). Returns DealActionPreview.
 * Throws as applyDealAction does: ValidationFailed (`resolution_required`, `note_required`,
 * `invalid_seller_share`); NotFound (`deal_not_found`) unless the actor is a party or a
 * moderator; Forbidden (`not_a_party`, `buyer_only`, `own_deal`…); Conflict
 * (`deal_state_changed`, `no_cancel_request`); InsufficientFunds (`insufficient_funds`, with the
 * amount needed) when funding and the buyer's available balance is short.
 */
export async function previewDealAction(
  db: Db,
  actorId: number,
  dealId: number,
  action: ConfirmedDealAction,
  input: DealActionInput = {},
): Promise<DealActionPreview> {
  if (!isValidId(dealId)) throw dealNotFound();
  const request = actionRequest(dealId, action, input);
  const deal = await loadDealDto(db, dealId);
  if (!deal) throw dealNotFound();
  const moderator = await isModeratorById(db, actorId);
  if (actorId !== deal.buyer.id && actorId !== deal.seller.id && !moderator) throw dealNotFound();
  const refusal = checkDealAction(
    { state: deal.state, buyerId: deal.buyer.id, sellerId: deal.seller.id, createdById: deal.createdById, cancelRequestedBy: deal.cancelRequestedBy },
    actorId,
    moderator,
    action,
  );
  if (refusal) throw refusal.kind === "forbidden" ? new Forbidden(refusal.message, refusal.code) : new Conflict(refusal.message, refusal.code);
  if (request.sellerShare !== undefined && !(request.sellerShare >= 1 && request.sellerShare < deal.amount)) {
    throw invalid("sellerShare", `Доля продавца — от 0,01 ₽ до ${formatKopecks(deal.amount - 1)}`, "invalid_seller_share");
  }
  const { member_available: balance } = await memberBalances(db, actorId, ["member_available"]);
  const common = {
    dealId: deal.id,
    action,
    description: deal.description,
    buyer: deal.buyer,
    seller: deal.seller,
    amount: deal.amount,
    resolution: request.resolution ?? null,
    sellerShare: request.sellerShare ?? null,
    note: request.note ?? null,
    balanceBefore: balance,
  };
  if (action === "fund") {
    const moved = deal.amount + deal.buyerFee;
    if (moved > balance) throw new InsufficientFunds(`Недостаточно средств: для оплаты сделки нужно ${formatKopecks(moved)} на балансе`);
    return { ...common, counterparty: deal.seller, fee: deal.buyerFee, moved, toSeller: 0, toBuyer: 0, balanceAfter: balance - moved };
  }
  const outcome = action === "confirm" ? "completed" : action === "agree_cancel" ? "refunded" : OUTCOME[request.resolution!];
  const paid = settlement(deal, outcome, request.sellerShare ?? 0);
  const received = (actorId === deal.seller.id ? paid.toSeller : 0) + (actorId === deal.buyer.id ? paid.toBuyer : 0);
  return {
    ...common,
    counterparty: outcome === "refunded" ? deal.buyer : deal.seller,
    toSeller: paid.toSeller,
    toBuyer: paid.toBuyer,
    // confirm shows the seller's fee share (kept from their payout), as the buyer's page always did.
    fee: action === "confirm" ? deal.sellerFee : paid.fee,
    moved: paid.toSeller + paid.toBuyer,
    balanceAfter: balance + received,
  };
}
