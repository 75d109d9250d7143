/**
 * The ledger (docs/product/money.md#transfers; docs/decisions/0007-ledger.md): the one place that writes
 * `ledger_transfers` and `ledger_accounts.balance`. Everything else (wallet, deposits, deals,
 * claims) describes the money it moves as legs and calls `postTransfers` inside an operation
 * (operations.server.ts).
 *
 * Correctness under concurrency: `postTransfers` creates missing accounts in a fixed order, then
 * locks every account it touches with one `SELECT … ORDER BY id FOR UPDATE`, checks the balances
 * it read under those locks, and writes the transfers and the new cached balances before the
 * transaction commits. Every writer takes account locks in id order, so operations queue up
 * instead of deadlocking, and a balance is never read stale. The CHECK on ledger_accounts is the
 * last guard: a member account below zero cannot be committed even by a bug here.
 */
import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { ledgerAccounts, ledgerTransfers, type LedgerAccountKind, type LedgerTransferKind, type MemberAccountKind } from "~/db/schema";
import { InsufficientFunds } from "~/lib/errors";

/** Names an account: a member's (created on first use), an escrow (by reference) or a platform account. */
export type AccountRef = { kind: MemberAccountKind; userId: number } | { kind: "escrow"; reference: string } | { kind: "platform_fee" | "platform_funding" };

/** One movement of money: `amount` kopecks (a positive integer) from `from` to `to`. */
export interface Leg {
  kind: LedgerTransferKind;
  from: AccountRef;
  to: AccountRef;
  amount: number;
  memo?: string | null;
}

/** A transfer as written: amounts and balances after it in kopecks. */
export interface PostedTransfer {
  id: number;
  kind: LedgerTransferKind;
  debitAccountId: number;
  creditAccountId: number;
  amount: number;
  debitBalanceAfter: number;
  creditBalanceAfter: number;
}

interface LockedAccount {
  id: number;
  kind: LedgerAccountKind;
  balance: number;
}

/** A stable string for an account reference (map keys and the order accounts are created in). */
export function accountKey(ref: AccountRef): string {
  if ("userId" in ref) return `${ref.kind}:${ref.userId}`;
  if ("reference" in ref) return `escrow:${ref.reference}`;
  return ref.kind;
}

/**
 * Writes `legs` as transfers of operation `operationId`, in order, inside transaction `tx`
 * (call it from runOperation's body). Member and escrow accounts are created on first use.
 * Returns the transfers written, in the order of `legs`, with each account's balance after it.
 *
 * Throws InsufficientFunds (`insufficient_funds`, 422) when a leg would take any account but
 * platform_funding below zero at any point — nothing is written then; the caller's transaction
 * rolls back. Throws a plain Error for a malformed leg (amount not a positive safe integer, or
 * the same account on both sides): that is a programming error, not a user's.
 */
export async function postTransfers(tx: Tx, operationId: number, legs: Leg[]): Promise<PostedTransfer[]> {
  if (legs.length === 0) return [];
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount <= 0) throw new Error(`ledger leg with a bad amount: ${leg.amount}`);
    if (accountKey(leg.from) === accountKey(leg.to)) throw new Error(`ledger leg from an account to itself: ${accountKey(leg.from)}`);
  }
  const refs = new Map<string, AccountRef>();
  for (const leg of legs) {
    refs.set(accountKey(leg.from), leg.from);
    refs.set(accountKey(leg.to), leg.to);
  }
  const accounts = await lockAccounts(tx, [...refs.entries()]);

  const balances = new Map<number, number>();
  for (const account of accounts.values()) balances.set(account.id, account.balance);
  const rows: (typeof ledgerTransfers.$inferInsert)[] = [];
  for (const leg of legs) {
    const debit = accounts.get(accountKey(leg.from))!;
    const credit = accounts.get(accountKey(leg.to))!;
    const debitAfter = balances.get(debit.id)! - leg.amount;
    if (debitAfter < 0 && debit.kind !== "platform_funding") throw new InsufficientFunds();
    const creditAfter = balances.get(credit.id)! + leg.amount;
    balances.set(debit.id, debitAfter);
    balances.set(credit.id, creditAfter);
    rows.push({
      operationId,
      kind: leg.kind,
      debitAccountId: debit.id,
      creditAccountId: credit.id,
      amount: leg.amount,
      debitBalanceAfter: debitAfter,
      creditBalanceAfter: creditAfter,
      memo: leg.memo ?? null,
    });
  }
  const written = await tx.insert(ledgerTransfers).values(rows).returning({
    id: ledgerTransfers.id,
    kind: ledgerTransfers.kind,
    debitAccountId: ledgerTransfers.debitAccountId,
    creditAccountId: ledgerTransfers.creditAccountId,
    amount: ledgerTransfers.amount,
    debitBalanceAfter: ledgerTransfers.debitBalanceAfter,
    creditBalanceAfter: ledgerTransfers.creditBalanceAfter,
  });
  for (const account of [...accounts.values()].sort((a, b) => a.id - b.id)) {
    const delta = balances.get(account.id)! - account.balance;
    if (delta !== 0) {
      await tx
        .update(ledgerAccounts)
        .set({ balance: sql`${ledgerAccounts.balance} + ${delta}` })
        .where(eq(ledgerAccounts.id, account.id));
    }
  }
  return written.sort((a, b) => a.id - b.id);
}

/**
 * Locks the accounts `refs` (creating missing member and escrow accounts) in the ledger's lock
 * order, inside transaction `tx`, and returns their balances in kopecks by accountKey. Call it
 * when a rule must be checked under the same locks the transfers will take (e.g. "no open
 * claim" before a deposit withdrawal); postTransfers may lock them again in the same transaction.
 */
export async function lockLedgerAccounts(tx: Tx, refs: AccountRef[]): Promise<Map<string, number>> {
  const locked = await lockAccounts(
    tx,
    refs.map((ref) => [accountKey(ref), ref]),
  );
  return new Map([...locked].map(([key, account]) => [key, account.balance]));
}

/**
 * Creates the missing member and escrow accounts of `refs` (sorted by key, so concurrent
 * creators wait for each other in one order), then locks all of them in id order.
 */
async function lockAccounts(tx: Tx, refs: [string, AccountRef][]): Promise<Map<string, LockedAccount>> {
  refs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const creatable = refs
    .map(([, ref]) => ref)
    .filter((ref) => ref.kind !== "platform_fee" && ref.kind !== "platform_funding")
    .map((ref) => ({ kind: ref.kind, userId: "userId" in ref ? ref.userId : null, reference: "reference" in ref ? ref.reference : null }));
  if (creatable.length > 0) await tx.insert(ledgerAccounts).values(creatable).onConflictDoNothing();

  const rows = await tx
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      userId: ledgerAccounts.userId,
      reference: ledgerAccounts.reference,
      balance: ledgerAccounts.balance,
    })
    .from(ledgerAccounts)
    .where(or(...refs.map(([, ref]) => matchAccount(ref))))
    .orderBy(asc(ledgerAccounts.id))
    .for("update");
  const byKey = new Map<string, LockedAccount>();
  for (const row of rows) {
    const ref: AccountRef =
      row.kind === "escrow"
        ? { kind: "escrow", reference: row.reference! }
        : row.kind === "platform_fee" || row.kind === "platform_funding"
          ? { kind: row.kind }
          : { kind: row.kind, userId: row.userId! };
    byKey.set(accountKey(ref), { id: row.id, kind: row.kind, balance: row.balance });
  }
  for (const [key] of refs) if (!byKey.has(key)) throw new Error(`ledger account missing after creation: ${key}`);
  return byKey;
}

function matchAccount(ref: AccountRef): SQL {
  if ("userId" in ref) return and(eq(ledgerAccounts.kind, ref.kind), eq(ledgerAccounts.userId, ref.userId))!;
  if ("reference" in ref) return and(eq(ledgerAccounts.kind, "escrow"), eq(ledgerAccounts.reference, ref.reference))!;
  return eq(ledgerAccounts.kind, ref.kind);
}

/**
 * The id of member `userId`'s account of `kind`, or null when it was never used (accounts are
 * created by their first transfer), with the condition selecting that account's transfers on
 * either side — what the balance and deposit logs page through.
 */
export async function memberAccountTransfers(db: Db, userId: number, kind: MemberAccountKind): Promise<{ accountId: number; touches: SQL } | null> {
  const [account] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, kind), eq(ledgerAccounts.userId, userId)));
  if (!account) return null;
  return { accountId: account.id, touches: or(eq(ledgerTransfers.debitAccountId, account.id), eq(ledgerTransfers.creditAccountId, account.id))! };
}

/**
 * The cached balances in kopecks of member `userId`'s accounts of `kinds` (0 for an account
 * not created yet). Reads without locks: a snapshot for display, never a basis for a transfer.
 */
export async function memberBalances(db: Db, userId: number, kinds: readonly MemberAccountKind[]): Promise<Record<MemberAccountKind, number>> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, [...kinds])));
  const result: Record<MemberAccountKind, number> = { member_available: 0, member_deposit: 0, member_held: 0 };
  for (const row of rows) result[row.kind as MemberAccountKind] = row.balance;
  return result;
}
