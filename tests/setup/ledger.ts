/**
 * Test support for the ledger suites (not used by the application):
 * the invariants of docs/product/money.md#invariants checked against the database, and an admin to top members up.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { ledgerAccounts, ledgerHolds, ledgerOperations, ledgerTransfers, users } from "~/db/schema";

export interface LedgerSnapshot {
  /** Sum of every account's cached balance, platform_funding included: 0 when debits equal credits. */
  totalBalance: number;
  /** Accounts other than platform_funding below zero. */
  negativeAccounts: number;
  /** Accounts whose cached balance differs from credits − debits of ledger_transfers. */
  driftedAccounts: { id: number; balance: number; derived: number }[];
  /** Recipients whose member_held balance differs from their unreleased holds. */
  driftedHolds: number;
  transfers: number;
  operations: number;
}

/** Reads the ledger's invariants from the database (docs/product/money.md#invariants). */
export async function ledgerSnapshot(db: Db): Promise<LedgerSnapshot> {
  const [totals] = await db
    .select({
      totalBalance: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)::text`,
      negativeAccounts: sql<number>`count(*) filter (where ${ledgerAccounts.kind} <> 'platform_funding' and ${ledgerAccounts.balance} < 0)`.mapWith(Number),
    })
    .from(ledgerAccounts);
  const derived = sql<string>`(
    coalesce((select sum(t.amount) from ${ledgerTransfers} t where t.credit_account_id = "ledger_accounts"."id"), 0)
    - coalesce((select sum(t.amount) from ${ledgerTransfers} t where t.debit_account_id = "ledger_accounts"."id"), 0))::text`;
  const accounts = await db.select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance, derived }).from(ledgerAccounts);
  const [holds] = await db
    .select({
      drifted: sql<number>`count(*) filter (where ${ledgerAccounts.balance} <> coalesce((
        select sum(h.amount) from ${ledgerHolds} h where h.recipient_id = "ledger_accounts"."user_id" and h.released_at is null), 0))`.mapWith(Number),
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.kind, "member_held"));
  const [transfers] = await db.select({ value: sql<number>`count(*)`.mapWith(Number) }).from(ledgerTransfers);
  const [operations] = await db.select({ value: sql<number>`count(*)`.mapWith(Number) }).from(ledgerOperations);
  return {
    totalBalance: Number(totals!.totalBalance),
    negativeAccounts: totals!.negativeAccounts,
    driftedAccounts: accounts.map((a) => ({ id: a.id, balance: a.balance, derived: Number(a.derived) })).filter((a) => a.balance !== a.derived),
    driftedHolds: holds?.drifted ?? 0,
    transfers: transfers!.value,
    operations: operations!.value,
  };
}

/** Operations that wrote more than one transfer (none of the wallet's operations does). */
export async function operationsWithSeveralTransfers(db: Db): Promise<number> {
  const rows = await db
    .select({ operationId: ledgerTransfers.operationId })
    .from(ledgerTransfers)
    .groupBy(ledgerTransfers.operationId)
    .having(sql`count(*) > 1`);
  return rows.length;
}

/** Makes member `userId` a moderator (disputes and claims need one). */
export async function promoteToModerator(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ role: "moderator" }).where(eq(users.id, userId));
}

/** Makes member `userId` an admin (top-ups need one). */
export async function promoteToAdmin(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ role: "admin" }).where(eq(users.id, userId));
}
