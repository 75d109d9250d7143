/**
 * The public security deposit (issue 5 item 3; docs/product/money.md#deposits): a member locks part
 * of their available balance in their member_deposit account, shown on the profile and the
 * leaderboard. Taking it back is a request that waits 14 days (pending, cancellable), during
 * which the money stays in the deposit and still covers claims; the scheduler then moves
 * min(requested, deposit then) back. No withdrawal is requested nor completed while a claim
 * against the member is open (docs/product/claims.md#claims-and-deposits: compensation may come from it).
 *
 * Concurrency: the open-claim rule is checked after locking the member's deposit account with
 * lockLedgerAccounts, and fileClaim locks the same account before inserting a claim, so a claim
 * and a withdrawal never slip past each other. Withdrawal rows are locked before accounts.
 * Amounts are integer kopecks; every function that changes anything takes the client's
 * idempotency key (system runs use `deposit-withdrawal:{id}`).
 */
import { aliasedTable, and, asc, count, desc, eq, gt, lte, notExists, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { claims, depositWithdrawals, ledgerAccounts, ledgerTransfers, users } from "~/db/schema";
import { eventBus } from "~/lib/events.server";
import { Conflict, InsufficientFunds, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { lockLedgerAccounts, memberAccountTransfers, memberBalances, postTransfers, type AccountRef } from "./ledger.server";
import { DEPOSIT_WITHDRAWAL_DAYS } from "./deposits";
import { limitNewOperation, runOperationDetailed, type Operation } from "./operations.server";
import { assertAmount } from "./wallet.server";
import { memberBadge, memberBadgeColumns, type MemberBadgeDto } from "~/domain/users/member-badge.server";
import { logger } from "~/lib/logger.server";

export { DEPOSIT_WITHDRAWAL_DAYS };
const DAY_MS = 86_400_000;
/** The refusal of the deposits limit (docs/product/limits.md#rate-limits). */
const DEPOSIT_RATE_MESSAGE = "Слишком много операций с депозитом подряд. Попробуйте позже.";

export const CLAIM_OPEN_MESSAGE = "Вывод депозита недоступен, пока против вас открыта претензия";
export const WITHDRAWAL_PENDING_MESSAGE = "Заявка на вывод депозита уже подана: дождитесь её исполнения или отмените её";
export const INSUFFICIENT_DEPOSIT_MESSAGE = "На депозите нет такой суммы";

export interface DepositResult {
  operationId: number;
  transferId: number;
  /** Kopecks moved into the deposit. */
  amount: number;
  /** The deposit right after, kopecks. */
  deposit: number;
  /** The available balance right after, kopecks. */
  available: number;
}

export interface PendingWithdrawal {
  id: number;
  /** Requested kopecks. */
  amount: number;
  /** ISO times: when it was requested and when the scheduler may complete it. */
  requestedAt: string;
  availableAt: string;
  /** True while a claim against the member is open: the withdrawal waits for its decision. */
  blockedByClaim: boolean;
}

export interface DepositSummary {
  /** The deposit balance, kopecks (a pending withdrawal is still in it). */
  deposit: number;
  pending: PendingWithdrawal | null;
  /** Open claims against the member. */
  openClaims: number;
}

export type DepositLogType = "deposit" | "withdrawal" | "compensation";

/** One change of the deposit (docs/product/money.md#balance-logs). */
export interface DepositLogEntry {
  id: number;
  type: DepositLogType;
  /** Signed kopecks: positive adds to the deposit, negative takes from it. */
  amount: number;
  /** The claimant paid by a compensation; null for the member's own deposits and withdrawals. */
  /** The other member (with ranks: the scam overlay and the trust card), or null. */
  counterparty: MemberBadgeDto | null;
  /** ISO time. */
  createdAt: string;
  /** The deposit right after this entry, kopecks. */
  balanceAfter: number;
}

const depositOf = (userId: number): AccountRef => ({ kind: "member_deposit", userId });
const availableOf = (userId: number): AccountRef => ({ kind: "member_available", userId });

function publishDeposit(db: Db, userId: number, deposit: number): void {
  eventBus(db).publish({ type: "deposit.changed", userId, deposit });
}

/** Open claims against `userId` (claims.status = 'open'); call it under the deposit account's lock. */
export async function openClaimsAgainst(db: Db | Tx, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(claims)
    .where(and(eq(claims.accusedId, userId), eq(claims.status, "open")));
  return row?.value ?? 0;
}

/**
 * Member `userId` moves `amount` kopecks from their available balance into their public
 * deposit, under idempotency key `key`. Returns DepositResult (balances after it). Throws
 * ValidationFailed (`invalid_amount`), InsufficientFunds (`insufficient_funds`; nothing
 * changes), Conflict (`idempotency_key_reused`). Publishes `deposit.changed` after commit.
 * docs/product/money.md#deposits.
 */
export async function depositFunds(db: Db, userId: number, amount: number, key: string): Promise<DepositResult> {
  assertAmount(amount);
  await limitNewOperation(db, userId, key, "deposits", DEPOSIT_RATE_MESSAGE);
  const { result, replayed } = await runOperationDetailed(db, userId, key, "deposit", { amount }, async (tx, operation): Promise<DepositResult> => {
    const [transfer] = await postTransfers(tx, operation.id, [{ kind: "deposit", from: availableOf(userId), to: depositOf(userId), amount }]);
    return { operationId: operation.id, transferId: transfer!.id, amount, deposit: transfer!.creditBalanceAfter, available: transfer!.debitBalanceAfter };
  });
  if (!replayed) publishDeposit(db, userId, result.deposit);
  return result;
}

/**
 * Member `userId` asks to take `amount` kopecks of their deposit back, under idempotency key
 * `key`. Nothing moves now: the request becomes available `DEPOSIT_WITHDRAWAL_DAYS` after `now`
 * and completeDueWithdrawals pays it then. Returns the PendingWithdrawal. Throws
 * ValidationFailed (`invalid_amount`), Conflict (`claim_open`) while a claim against the member
 * is open, Conflict (`withdrawal_pending`) when one is already pending, InsufficientFunds
 * (`insufficient_deposit`) when `amount` exceeds the deposit, Conflict
 * (`idempotency_key_reused`). A refusal changes nothing. docs/product/money.md#deposits.
 */
export async function requestDepositWithdrawal(db: Db, userId: number, amount: number, key: string, now: Date = new Date()): Promise<PendingWithdrawal> {
  assertAmount(amount);
  await limitNewOperation(db, userId, key, "deposits", DEPOSIT_RATE_MESSAGE);
  const { result } = await runOperationDetailed(
    db,
    userId,
    key,
    "deposit.withdrawal.request",
    { amount },
    async (tx, operation): Promise<PendingWithdrawal> => {
      const balances = await lockLedgerAccounts(tx, [depositOf(userId)]);
      const deposit = balances.get(`member_deposit:${userId}`) ?? 0;
      if ((await openClaimsAgainst(tx, userId)) > 0) throw new Conflict(CLAIM_OPEN_MESSAGE, "claim_open");
      const [pending] = await tx
        .select({ id: depositWithdrawals.id })
        .from(depositWithdrawals)
        .where(and(eq(depositWithdrawals.userId, userId), eq(depositWithdrawals.state, "pending")));
      if (pending) throw new Conflict(WITHDRAWAL_PENDING_MESSAGE, "withdrawal_pending");
      if (amount > deposit) throw new InsufficientFunds(INSUFFICIENT_DEPOSIT_MESSAGE, "insufficient_deposit");
      const availableAt = new Date(now.getTime() + DEPOSIT_WITHDRAWAL_DAYS * DAY_MS);
      const [row] = await tx
        .insert(depositWithdrawals)
        .values({ userId, amount, operationId: operation.id, availableAt, createdAt: now })
        .returning({ id: depositWithdrawals.id });
      return { id: row!.id, amount, requestedAt: now.toISOString(), availableAt: availableAt.toISOString(), blockedByClaim: false };
    },
  );
  return result;
}

/**
 * Member `userId` cancels their pending withdrawal `withdrawalId` (the money simply stays in the
 * deposit), under idempotency key `key`. Returns `{id, cancelled: true}`. Throws NotFound
 * (`withdrawal_not_found`) for an unknown or another member's withdrawal, Conflict
 * (`withdrawal_closed`) when it was completed or cancelled already, Conflict
 * (`idempotency_key_reused`). docs/product/money.md#deposits.
 */
export async function cancelDepositWithdrawal(db: Db, userId: number, withdrawalId: number, key: string): Promise<{ id: number; cancelled: true }> {
  if (!isValidId(withdrawalId)) throw withdrawalNotFound();
  await limitNewOperation(db, userId, key, "deposits", DEPOSIT_RATE_MESSAGE);
  const { result } = await runOperationDetailed(db, userId, key, "deposit.withdrawal.cancel", { withdrawalId }, async (tx) => {
    const [row] = await tx.select().from(depositWithdrawals).where(eq(depositWithdrawals.id, withdrawalId)).for("update");
    if (!row || row.userId !== userId) throw withdrawalNotFound();
    if (row.state !== "pending") throw new Conflict("Эта заявка на вывод уже исполнена или отменена", "withdrawal_closed");
    await tx.update(depositWithdrawals).set({ state: "cancelled", closedAt: new Date() }).where(eq(depositWithdrawals.id, withdrawalId));
    return { id: withdrawalId, cancelled: true as const };
  });
  return result;
}

/** NotFound (`withdrawal_not_found`, 404): an unknown withdrawal or another member's. */
export function withdrawalNotFound(): NotFound {
  return new NotFound("Заявка на вывод не найдена", "withdrawal_not_found");
}

/** Thrown inside a completion to roll its operation back (so a later run may complete it). */
class BlockedByClaim extends Error {}

interface CompletionResult {
  withdrawalId: number;
  userId: number;
  completed: boolean;
  /** Kopecks moved back to the available balance. */
  amount: number;
  transferId: number | null;
  /** The deposit after completion, kopecks. */
  deposit: number;
}

/**
 * The scheduler's job (docs/product/money.md#deposits: 14 days): completes every pending withdrawal
 * whose `available_at` is at or before `now`, each as its own system operation keyed
 * `deposit-withdrawal:{id}` (overlapping runs and restarts never pay twice). Moves min(requested,
 * deposit now) with a `withdrawal` transfer and records completedAmount, transferId and
 * closedAt; a deposit emptied meanwhile (compensation) completes it with 0 and no transfer.
 * Withdrawals of members with an open claim stay pending (blockedByClaim) until it is decided.
 * Returns how many withdrawals this call completed. Publishes `deposit.changed` for each. A
 * withdrawal whose completion fails is logged and skipped; the next run retries it.
 */
export async function completeDueWithdrawals(db: Db, now: Date = new Date()): Promise<number> {
  let completed = 0;
  let after = 0;
  const openClaim = db
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.accusedId, depositWithdrawals.userId), eq(claims.status, "open")));
  for (;;) {
    const due = await db
      .select({ id: depositWithdrawals.id })
      .from(depositWithdrawals)
      .where(and(eq(depositWithdrawals.state, "pending"), lte(depositWithdrawals.availableAt, now), gt(depositWithdrawals.id, after), notExists(openClaim)))
      .orderBy(asc(depositWithdrawals.id))
      .limit(100);
    for (const { id } of due) {
      after = id;
      try {
        const { result, replayed } = await runOperationDetailed(
          db,
          null,
          `deposit-withdrawal:${id}`,
          "deposit.withdrawal.complete",
          { withdrawalId: id },
          (tx, operation): Promise<CompletionResult> => completeInTransaction(tx, operation, id, now),
        );
        if (result.completed && !replayed) {
          completed += 1;
          if (result.amount > 0) publishDeposit(db, result.userId, result.deposit);
        }
      } catch (error) {
        // A claim filed meanwhile keeps it pending; any other failure is logged and retried next run.
        if (!(error instanceof BlockedByClaim)) logger.error({ err: error, area: "deposits", withdrawalId: id }, `completion of withdrawal ${id} failed`);
      }
    }
    if (due.length < 100) return completed;
  }
}

async function completeInTransaction(tx: Tx, operation: Operation, withdrawalId: number, now: Date): Promise<CompletionResult> {
  const [row] = await tx.select().from(depositWithdrawals).where(eq(depositWithdrawals.id, withdrawalId)).for("update");
  if (!row) throw new Error(`deposit withdrawal ${withdrawalId} vanished`);
  if (row.state !== "pending") return { withdrawalId, userId: row.userId, completed: false, amount: 0, transferId: null, deposit: 0 };
  // Both accounts the transfer touches, in one call (the ledger's id order), like depositFunds.
  const balances = await lockLedgerAccounts(tx, [depositOf(row.userId), availableOf(row.userId)]);
  const deposit = balances.get(`member_deposit:${row.userId}`) ?? 0;
  if ((await openClaimsAgainst(tx, row.userId)) > 0) throw new BlockedByClaim();
  const amount = Math.min(row.amount, deposit);
  let transferId: number | null = null;
  if (amount > 0) {
    const [transfer] = await postTransfers(tx, operation.id, [{ kind: "withdrawal", from: depositOf(row.userId), to: availableOf(row.userId), amount }]);
    transferId = transfer!.id;
  }
  await tx
    .update(depositWithdrawals)
    .set({ state: "completed", closedAt: now, completedAmount: amount, transferId })
    .where(eq(depositWithdrawals.id, withdrawalId));
  return { withdrawalId, userId: row.userId, completed: true, amount, transferId, deposit: deposit - amount };
}

/**
 * Member `userId`'s deposit for their pages: the balance in kopecks, the pending withdrawal (if
 * any, with blockedByClaim) and how many claims against them are open. Reads without locks.
 */
export async function getDepositSummary(db: Db, userId: number): Promise<DepositSummary> {
  const [balances, [pending], openClaims] = await Promise.all([
    memberBalances(db, userId, ["member_deposit"]),
    db
      .select()
      .from(depositWithdrawals)
      .where(and(eq(depositWithdrawals.userId, userId), eq(depositWithdrawals.state, "pending"))),
    openClaimsAgainst(db, userId),
  ]);
  return {
    deposit: balances.member_deposit,
    pending: pending
      ? {
          id: pending.id,
          amount: pending.amount,
          requestedAt: pending.createdAt.toISOString(),
          availableAt: pending.availableAt.toISOString(),
          blockedByClaim: openClaims > 0,
        }
      : null,
    openClaims,
  };
}

/**
 * The deposit log of docs/product/money.md#balance-logs (`GET /api/profile/payments/deposit`): every change of
 * member `userId`'s deposit, newest first, paged by `params`: type (deposit, withdrawal,
 * compensation), signed kopecks, the claimant for a compensation, ISO time, deposit after it.
 */
export async function listDepositLog(db: Db, userId: number, params: PageParams): Promise<Page<DepositLogEntry>> {
  const log = await memberAccountTransfers(db, userId, "member_deposit");
  if (!log) return toPage([], 0, params);
  const { accountId, touches: mine } = log;
  const other = aliasedTable(ledgerAccounts, "other");
  const counterparty = aliasedTable(users, "counterparty");
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: ledgerTransfers.id,
        kind: ledgerTransfers.kind,
        debitAccountId: ledgerTransfers.debitAccountId,
        amount: ledgerTransfers.amount,
        debitBalanceAfter: ledgerTransfers.debitBalanceAfter,
        creditBalanceAfter: ledgerTransfers.creditBalanceAfter,
        createdAt: ledgerTransfers.createdAt,
        counterparty: memberBadgeColumns(counterparty),
      })
      .from(ledgerTransfers)
      .innerJoin(
        other,
        eq(
          other.id,
          sql`case when ${ledgerTransfers.debitAccountId} = ${accountId} then ${ledgerTransfers.creditAccountId} else ${ledgerTransfers.debitAccountId} end`,
        ),
      )
      .leftJoin(counterparty, and(eq(counterparty.id, other.userId), eq(ledgerTransfers.kind, "compensation")))
      .where(mine)
      .orderBy(desc(ledgerTransfers.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(ledgerTransfers).where(mine),
  ]);
  const items = rows.map((row): DepositLogEntry => {
    const outgoing = row.debitAccountId === accountId;
    const type: DepositLogType = row.kind === "compensation" ? "compensation" : outgoing ? "withdrawal" : "deposit";
    return {
      id: row.id,
      type,
      amount: outgoing ? -row.amount : row.amount,
      counterparty: row.counterparty === null ? null : memberBadge(row.counterparty),
      createdAt: row.createdAt.toISOString(),
      balanceAfter: outgoing ? row.debitBalanceAfter : row.creditBalanceAfter,
    };
  });
  return toPage(items, total?.value ?? 0, params);
}
