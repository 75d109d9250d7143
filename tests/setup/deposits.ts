/**
 * What the deposit suites share (app/domain/ledger/deposits*.test.ts): one database per file,
 * made by `setUpDepositDatabase()` (live bindings: `t` and `admin` are set once it has run), members
 * with money and deposits, the withdrawal rows, and the ledger's invariants checked after a refusal.
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { depositWithdrawals } from "~/db/schema";
import { cancelDepositWithdrawal, depositFunds, getDepositSummary } from "~/domain/ledger/deposits.server";
import { postTransfers } from "~/domain/ledger/ledger.server";
import { runOperation } from "~/domain/ledger/operations.server";
import { topUp } from "~/domain/ledger/wallet.server";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus, type EventOf } from "~/lib/events.server";
import { createTestDatabase, type TestDatabase } from "./database";
import { makeUser } from "./factories";
import { ledgerSnapshot, promoteToAdmin } from "./ledger";

export let t: TestDatabase;
export let admin: UserRow;
let keyCounter = 0;
export const key = () => `deposit-key-${++keyCounter}`;
export const firstPage = { page: 1, perPage: 10 };
export const DAY = 86_400_000;
export const events: EventOf<"deposit.changed">[] = [];

/** Registers the file's database: made before its tests (with an admin and the deposit events), destroyed after. */
export function setUpDepositDatabase(): void {
  beforeAll(async () => {
    t = await createTestDatabase();
    admin = await makeUser(t.db);
    await promoteToAdmin(t.db, admin.id);
    eventBus(t.db).subscribe("deposit.changed", (event) => void events.push(event));
  });
  afterAll(async () => {
    await t.destroy();
  });
}

export async function funded(kopecks: number): Promise<UserRow> {
  const member = await makeUser(t.db);
  if (kopecks > 0) await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

/** A member with `available` on their balance and `deposit` locked in their deposit. */
export async function withDeposit(available: number, deposit: number): Promise<UserRow> {
  const member = await funded(available + deposit);
  await depositFunds(t.db, member.id, deposit, key());
  return member;
}

/** Pays `amount` from the accused's deposit to the claimant, as an upheld claim's compensation does. */
export async function compensate(accusedId: number, claimantId: number, amount: number): Promise<void> {
  await runOperation(t.db, null, key(), "test.compensation", { accusedId, amount }, (tx, operation) =>
    postTransfers(tx, operation.id, [
      { kind: "compensation", from: { kind: "member_deposit", userId: accusedId }, to: { kind: "member_available", userId: claimantId }, amount },
    ]),
  );
}

export async function withdrawalRows(userId: number) {
  return t.db.select().from(depositWithdrawals).where(eq(depositWithdrawals.userId, userId)).orderBy(depositWithdrawals.id);
}

/** Cancels `userId`'s pending withdrawal, so later scheduler runs of other tests count only their own. */
export async function cancelPending(userId: number): Promise<void> {
  const { pending } = await getDepositSummary(t.db, userId);
  if (pending) await cancelDepositWithdrawal(t.db, userId, pending.id, key());
}

export async function expectInvariants() {
  expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
}

/** Runs `refused`, expects it to reject like `expected`, and checks that nothing changed. */
export async function expectNothingChanges(refused: () => Promise<unknown>, expected: object) {
  const before = await ledgerSnapshot(t.db);
  const [withdrawalsBefore] = await t.db.select({ value: count() }).from(depositWithdrawals);
  await expect(refused()).rejects.toMatchObject(expected);
  const after = await ledgerSnapshot(t.db);
  const [withdrawalsAfter] = await t.db.select({ value: count() }).from(depositWithdrawals);
  expect([after.transfers, after.operations, withdrawalsAfter!.value]).toEqual([before.transfers, before.operations, withdrawalsBefore!.value]);
}
