/**
 * The shape of every transfer (docs/product/money.md#invariants, invariants 1 and 2): a positive
 * whole number of kopecks between two different accounts, of a known kind, with one
 * platform_funding account as the only door for outside money. postTransfers refuses anything
 * else before writing, and the database refuses it even when written behind its back.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAccounts, ledgerOperations, ledgerTransfers } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin } from "../../../tests/setup/ledger";
import { postTransfers, type Leg } from "./ledger.server";
import { runOperation } from "./operations.server";
import { topUp } from "./wallet.server";

let t: TestDatabase;
let member: UserRow;
let counter = 0;
const key = () => `ledger-key-${++counter}`;

beforeAll(async () => {
  t = await createTestDatabase();
  const admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
  member = await makeUser(t.db);
  await topUp(t.db, admin.id, member.id, 10_000, key());
});
afterAll(async () => {
  await t.destroy();
});

async function accountId(kind: "member_available" | "platform_fee"): Promise<number> {
  const where = kind === "platform_fee" ? eq(ledgerAccounts.kind, kind) : and(eq(ledgerAccounts.kind, kind), eq(ledgerAccounts.userId, member.id));
  const [row] = await t.db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(where);
  return row!.id;
}

describe(`the shape of a transfer on ${engine}`, () => {
  it("postTransfers refuses zero, negative, fractional and unsafe amounts and a leg from an account to itself, writing nothing", async () => {
    const available = { kind: "member_available" as const, userId: member.id };
    const before = await ledgerSnapshot(t.db);
    const bad: Leg[] = [
      { kind: "transfer", from: available, to: { kind: "platform_fee" }, amount: 0 },
      { kind: "transfer", from: available, to: { kind: "platform_fee" }, amount: -100 },
      { kind: "transfer", from: available, to: { kind: "platform_fee" }, amount: 1.5 },
      { kind: "transfer", from: available, to: { kind: "platform_fee" }, amount: 2 ** 53 },
      { kind: "transfer", from: available, to: available, amount: 100 },
    ];
    for (const leg of bad) {
      await expect(runOperation(t.db, member.id, key(), "test", {}, (tx, op) => postTransfers(tx, op.id, [leg]))).rejects.toThrow(/ledger leg/);
    }
    const after = await ledgerSnapshot(t.db);
    expect(after).toEqual(before);
  });

  it("the database refuses, even written directly, a transfer of no money, to the same account, or of an unknown kind", async () => {
    const [from, to] = [await accountId("member_available"), await accountId("platform_fee")];
    const [operation] = await t.db
      .insert(ledgerOperations)
      .values({ actorId: null, idempotencyKey: key(), kind: "test", fingerprint: "test" })
      .returning({ id: ledgerOperations.id });
    const row = {
      operationId: operation!.id,
      kind: "transfer" as const,
      debitAccountId: from,
      creditAccountId: to,
      amount: 100,
      debitBalanceAfter: 0,
      creditBalanceAfter: 0,
    };
    const before = await ledgerSnapshot(t.db);
    await expect(t.db.insert(ledgerTransfers).values({ ...row, amount: 0 })).rejects.toThrow();
    await expect(t.db.insert(ledgerTransfers).values({ ...row, amount: -100 })).rejects.toThrow();
    await expect(t.db.insert(ledgerTransfers).values({ ...row, creditAccountId: from })).rejects.toThrow();
    await expect(
      t.db.execute(sql`insert into ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, amount, debit_balance_after, credit_balance_after)
      values (${operation!.id}, 'gift', ${from}, ${to}, 100, 0, 0)`),
    ).rejects.toThrow();
    expect((await ledgerSnapshot(t.db)).transfers).toBe(before.transfers);
  });

  it("there is one platform_funding and one platform_fee account: the database refuses a second", async () => {
    await expect(t.db.insert(ledgerAccounts).values({ kind: "platform_funding" })).rejects.toThrow();
    await expect(t.db.insert(ledgerAccounts).values({ kind: "platform_fee" })).rejects.toThrow();
    const platform = await t.db
      .select({ kind: ledgerAccounts.kind })
      .from(ledgerAccounts)
      .where(sql`${ledgerAccounts.kind} like 'platform%'`);
    expect(platform.map((row) => row.kind).sort()).toEqual(["platform_fee", "platform_funding"]);
  });
});
