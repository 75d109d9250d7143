/**
 * The confirmation step of a claim decision that moves money (docs/product/interface.md#money-confirmations):
 * upholding with compensation, which pays the claimant from the accused's deposit
 * (docs/product/claims.md#compensation). The checks decideClaim makes, and nothing moves or is
 * decided; decideClaim checks again under its locks. A decision without compensation moves no
 * money and is not confirmed.
 */
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { claims } from "~/db/schema";
import { memberBalances } from "../ledger/ledger.server";
import { getUserById } from "../users/users.server";
import { checkClaimDecidable, claimNotFound, compensationAboveDeposit, parseClaimDecision } from "./claims.server";
import type { DecideClaimInput } from "./schemas";

/** What upholding a claim with compensation would move. Kopecks. */
export interface ClaimDecisionPreview {
  claimId: number;
  /** The claimed amount. */
  amount: number;
  claimant: { id: number; username: string };
  accused: { id: number; username: string };
  note: string;
  /** Paid from the accused's deposit to the claimant's available balance. */
  compensation: number;
  depositBefore: number;
  depositAfter: number;
  claimantBalanceAfter: number;
}

/**
 * The confirmation step of moderator `moderatorId` upholding claim `claimId` with
 * `input.compensation` kopecks (decideClaim, docs/product/claims.md#deciding). Returns
 * ClaimDecisionPreview. Throws as decideClaim does: NotFound (`claim_not_found`), Forbidden
 * (`not_moderator`, `party_cannot_decide`), ValidationFailed (`invalid_input`,
 * `compensation_on_reject`, `compensation_above_claim`), Conflict (`claim_already_decided`),
 * InsufficientFunds (`insufficient_deposit`).
 */
export async function previewClaimDecision(db: Db, moderatorId: number, claimId: number, input: DecideClaimInput): Promise<ClaimDecisionPreview> {
  const { note, compensation } = await parseClaimDecision(db, moderatorId, claimId, input);
  const [claim] = await db.select().from(claims).where(eq(claims.id, claimId));
  if (!claim) throw claimNotFound();
  checkClaimDecidable(claim, moderatorId, compensation);
  const paid = compensation ?? 0;
  const [{ member_deposit: deposit }, { member_available: available }, claimant, accused] = await Promise.all([
    memberBalances(db, claim.accusedId, ["member_deposit"]),
    memberBalances(db, claim.claimantId, ["member_available"]),
    getUserById(db, claim.claimantId),
    getUserById(db, claim.accusedId),
  ]);
  if (paid > deposit) throw compensationAboveDeposit(deposit, paid);
  return {
    claimId: claim.id,
    amount: claim.amount,
    claimant: { id: claimant!.id, username: claimant!.username },
    accused: { id: accused!.id, username: accused!.username },
    note,
    compensation: paid,
    depositBefore: deposit,
    depositAfter: deposit - paid,
    claimantBalanceAfter: available + paid,
  };
}
