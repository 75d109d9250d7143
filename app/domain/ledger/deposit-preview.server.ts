/**
 * The confirmation steps of /profile/deposit (docs/product/interface.md#money-confirmations): what
 * locking money in the deposit, asking for it back or cancelling that request would do — the
 * amount, the fee (none), the balances before and after — after every check the real operation
 * makes. Nothing moves and nothing is saved; depositFunds, requestDepositWithdrawal and
 * cancelDepositWithdrawal check again under their locks.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { depositWithdrawals } from "~/db/schema";
import { Conflict, InsufficientFunds } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { memberBalances } from "./ledger.server";
import { DEPOSIT_WITHDRAWAL_DAYS } from "./deposits";
import { CLAIM_OPEN_MESSAGE, INSUFFICIENT_DEPOSIT_MESSAGE, openClaimsAgainst, WITHDRAWAL_PENDING_MESSAGE, withdrawalNotFound } from "./deposits.server";
import { assertAmount } from "./wallet.server";

/** Kopecks: what a deposit or a withdrawal request would change. */
export interface DepositPreview {
  amount: number;
  /** Deposits and withdrawals carry no fee (docs/product/money.md#deposits). */
  fee: number;
  /** The available balance now and after (for a withdrawal: once it completes). */
  availableBefore: number;
  availableAfter: number;
  /** The deposit now and after (for a withdrawal: once it completes). */
  depositBefore: number;
  depositAfter: number;
}

export interface WithdrawalPreview extends DepositPreview {
  /** ISO time the money would come back: DEPOSIT_WITHDRAWAL_DAYS after `now`. */
  availableAt: string;
}

/**
 * The confirmation step of locking `amount` kopecks of member `userId`'s available balance in
 * their deposit (depositFunds). Returns DepositPreview. Throws ValidationFailed
 * (`invalid_amount`), InsufficientFunds (`insufficient_funds`) when the available balance is short.
 * docs/product/money.md#deposits.
 */
export async function previewDeposit(db: Db, userId: number, amount: number): Promise<DepositPreview> {
  assertAmount(amount);
  const balances = await memberBalances(db, userId, ["member_available", "member_deposit"]);
  if (amount > balances.member_available) throw new InsufficientFunds();
  return {
    amount,
    fee: 0,
    availableBefore: balances.member_available,
    availableAfter: balances.member_available - amount,
    depositBefore: balances.member_deposit,
    depositAfter: balances.member_deposit + amount,
  };
}

/**
 * The confirmation step of asking for `amount` kopecks of member `userId`'s deposit back
 * (requestDepositWithdrawal): the same refusals, in the same order. Returns WithdrawalPreview.
 * Throws ValidationFailed (`invalid_amount`), Conflict (`claim_open`, `withdrawal_pending`),
 * InsufficientFunds (`insufficient_deposit`). docs/product/money.md#deposits.
 */
export async function previewWithdrawal(db: Db, userId: number, amount: number, now: Date = new Date()): Promise<WithdrawalPreview> {
  assertAmount(amount);
  if ((await openClaimsAgainst(db, userId)) > 0) throw new Conflict(CLAIM_OPEN_MESSAGE, "claim_open");
  const [pending] = await db
    .select({ id: depositWithdrawals.id })
    .from(depositWithdrawals)
    .where(and(eq(depositWithdrawals.userId, userId), eq(depositWithdrawals.state, "pending")));
  if (pending) throw new Conflict(WITHDRAWAL_PENDING_MESSAGE, "withdrawal_pending");
  const balances = await memberBalances(db, userId, ["member_available", "member_deposit"]);
  if (amount > balances.member_deposit) throw new InsufficientFunds(INSUFFICIENT_DEPOSIT_MESSAGE, "insufficient_deposit");
  return {
    amount,
    fee: 0,
    availableBefore: balances.member_available,
    availableAfter: balances.member_available + amount,
    depositBefore: balances.member_deposit,
    depositAfter: balances.member_deposit - amount,
    availableAt: new Date(now.getTime() + DEPOSIT_WITHDRAWAL_DAYS * 86_400_000).toISOString(),
  };
}

/** Kopecks: what cancelling a pending withdrawal would keep. */
export interface WithdrawalCancelPreview {
  withdrawalId: number;
  /** The amount asked for, which stays in the deposit. */
  amount: number;
  fee: number;
  /** ISO time the money would have come back to the balance. */
  availableAt: string;
  /** The deposit and the available balance: cancelling moves nothing, so both stay as they are. */
  deposit: number;
  available: number;
}

/**
 * The confirmation step of member `userId` cancelling their pending withdrawal `withdrawalId`
 * (cancelDepositWithdrawal): the same refusals. Returns WithdrawalCancelPreview. Throws NotFound
 * (`withdrawal_not_found`) for an unknown or another member's request, Conflict
 * (`withdrawal_closed`) when it was completed or cancelled already. docs/product/money.md#deposits.
 */
export async function previewWithdrawalCancel(db: Db, userId: number, withdrawalId: number): Promise<WithdrawalCancelPreview> {
  if (!isValidId(withdrawalId)) throw withdrawalNotFound();
  const [row] = await db.select().from(depositWithdrawals).where(eq(depositWithdrawals.id, withdrawalId));
  if (!row || row.userId !== userId) throw withdrawalNotFound();
  if (row.state !== "pending") throw new Conflict("Эта заявка на вывод уже исполнена или отменена", "withdrawal_closed");
  const balances = await memberBalances(db, userId, ["member_available", "member_deposit"]);
  return {
    withdrawalId: row.id,
    amount: row.amount,
    fee: 0,
    availableAt: row.availableAt.toISOString(),
    deposit: balances.member_deposit,
    available: balances.member_available,
  };
}
