/**
 * Guarantor deal fees
 * (docs/product/deals.md#fees: 5 %, at least 50 ₽, paid by the buyer, the seller or half each, as agreed). Pure: the server fixes them at creation, the browser
 * previews them in the «Новая сделка» form. All amounts are integer kopecks.
 */
import type { DealFeePayer } from "./types";

/** The fee, percent of the deal amount. */
export const DEAL_FEE_PERCENT = 5;
/** The smallest fee: 50 ₽. */
export const DEAL_MIN_FEE = 5_000;
/** The smallest deal: 100 ₽, so the seller's share of the fee (≤ 50 ₽ at that size) stays below the amount. */
export const DEAL_MIN_AMOUNT = 10_000;
/** Hours after «delivered» when the deal completes by itself if the buyer does nothing. */
export const DEAL_AUTO_COMPLETE_HOURS = 72;

export interface DealFee {
  /** The whole fee, kopecks: max(round(5 % of amount), 50 ₽). */
  fee: number;
  /** What the buyer pays on top of the amount when funding, kopecks. */
  buyerFee: number;
  /** What is kept from the seller's payout, kopecks. */
  sellerFee: number;
}

/**
 * The fee of a deal of `amount` kopecks (a positive safe integer) and how `payer` shares it:
 * "buyer" pays all, "seller" pays all, "split" gives the buyer the larger half (ceil(fee / 2)).
 * Rounding: half a kopeck rounds up. Throws RangeError for an amount that is not a positive
 * safe integer (a programming error: inputs are validated before).
 */
export function dealFee(amount: number, payer: DealFeePayer): DealFee {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`not a deal amount: ${amount}`);
  const fee = Math.max(Math.round((amount * DEAL_FEE_PERCENT) / 100), DEAL_MIN_FEE);
  if (payer === "buyer") return { fee, buyerFee: fee, sellerFee: 0 };
  if (payer === "seller") return { fee, buyerFee: 0, sellerFee: fee };
  const buyerFee = Math.ceil(fee / 2);
  return { fee, buyerFee, sellerFee: fee - buyerFee };
}
