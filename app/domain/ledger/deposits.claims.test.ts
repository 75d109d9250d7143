import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claims } from "~/db/schema";
import { engine } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { completeDueWithdrawals, depositFunds, getDepositSummary, requestDepositWithdrawal } from "./deposits.server";
import { untilATransactionWaitsForALock } from "../../../tests/setup/wait";
import {
  admin,
  cancelPending,
  DAY,
  expectInvariants,
  expectNothingChanges,
  key,
  t,
  setUpDepositDatabase,
  withDeposit,
  withdrawalRows,
} from "../../../tests/setup/deposits";
import { lockLedgerAccounts } from "./ledger.server";
import { topUp } from "./wallet.server";
import { getBalances } from "./balances.server";

setUpDepositDatabase();

async function openClaim(accusedId: number): Promise<number> {
  const claimant = await makeUser(t.db);
  const [row] = await t.db
    .insert(claims)
    .values({ claimantId: claimant.id, accusedId, amount: 10_000, description: "Не передал аккаунт после оплаты" })
    .returning({ id: claims.id });
  return row!.id;
}

/**
 * Starts filing a claim against `accusedId` the way fileClaim does: the accused's deposit
 * account is locked first, the claim inserted when `file()` is called. `whenSomeoneWaits()`
 * resolves once another transaction waits for a lock (PostgreSQL; PGlite runs one statement
 * at a time, so there the other operation simply runs after the claim).
 */
async function fileClaimBehindLock(accusedId: number) {
  const claimant = await makeUser(t.db);
  let locked!: () => void;
  let insert!: () => void;
  const lockHeld = new Promise<void>((resolve) => (locked = resolve));
  const go = new Promise<void>((resolve) => (insert = resolve));
  const filing = t.db.transaction(async (tx) => {
    await lockLedgerAccounts(tx, [{ kind: "member_deposit", userId: accusedId }]);
    locked();
    await go;
    await tx.insert(claims).values({ claimantId: claimant.id, accusedId, amount: 5_000, description: "Деньги получены, товар не передан" });
  });
  await lockHeld;
  return {
    async whenSomeoneWaits() {
      if (engine !== "PostgreSQL") return;
      await untilATransactionWaitsForALock(t.db, "another transaction to wait for the deposit lock");
    },
    async file() {
      insert();
      await filing;
    },
  };
}

async function rejectClaim(claimId: number): Promise<void> {
  await t.db.update(claims).set({ status: "rejected", decidedAt: new Date() }).where(eq(claims.id, claimId));
}

describe(`claims block deposit withdrawals on ${engine}`, () => {
  it("no request while a claim against the member is open", async () => {
    const member = await withDeposit(0, 10_000);
    const claimId = await openClaim(member.id);
    expect((await getDepositSummary(t.db, member.id)).openClaims).toBe(1);
    await expectNothingChanges(() => requestDepositWithdrawal(t.db, member.id, 1_000, key()), {
      status: 409,
      code: "claim_open",
      message: "Вывод депозита недоступен, пока против вас открыта претензия",
    });
    // Adding to the deposit stays possible.
    await topUp(t.db, admin.id, member.id, 500, key());
    await depositFunds(t.db, member.id, 500, key());
    await rejectClaim(claimId);
    await expect(requestDepositWithdrawal(t.db, member.id, 1_000, key())).resolves.toMatchObject({ amount: 1_000, blockedByClaim: false });
    await cancelPending(member.id);
  });

  it("a pending withdrawal waits while a claim is open and completes once it is decided", async () => {
    const member = await withDeposit(0, 10_000);
    const now = new Date("2034-02-01T00:00:00Z");
    const pending = await requestDepositWithdrawal(t.db, member.id, 3_000, key(), now);
    const claimId = await openClaim(member.id);
    expect((await getDepositSummary(t.db, member.id)).pending).toEqual({ ...pending, blockedByClaim: true });

    const due = new Date(now.getTime() + 15 * DAY);
    expect(await completeDueWithdrawals(t.db, due)).toBe(0);
    expect(await completeDueWithdrawals(t.db, due)).toBe(0);
    expect((await getBalances(t.db, member.id)).deposit).toBe(10_000);
    expect(await withdrawalRows(member.id)).toMatchObject([{ state: "pending", closedAt: null }]);

    await rejectClaim(claimId);
    expect((await getDepositSummary(t.db, member.id)).pending).toEqual(pending);
    expect(await completeDueWithdrawals(t.db, due)).toBe(1);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 3_000, held: 0, deposit: 7_000 });
    await expectInvariants();
  });

  it("a claim filed while the scheduler waits for the deposit lock keeps the withdrawal pending", async () => {
    const member = await withDeposit(0, 10_000);
    const now = new Date("2036-02-01T00:00:00Z");
    const pending = await requestDepositWithdrawal(t.db, member.id, 3_000, key(), now);
    const claim = await fileClaimBehindLock(member.id);
    const run = completeDueWithdrawals(t.db, new Date(now.getTime() + 15 * DAY));
    await claim.whenSomeoneWaits();
    await claim.file();
    expect(await run).toBe(0);
    expect(await withdrawalRows(member.id)).toMatchObject([{ id: pending.id, state: "pending", closedAt: null }]);
    expect((await getBalances(t.db, member.id)).deposit).toBe(10_000);
  });

  it("a request waiting for the deposit lock while a claim is filed is refused", async () => {
    const member = await withDeposit(0, 10_000);
    const claim = await fileClaimBehindLock(member.id);
    // Settled into a value at once: the refusal may come before the claim's commit is acknowledged here.
    const request = requestDepositWithdrawal(t.db, member.id, 1_000, key()).then(
      () => null,
      (error: unknown) => error,
    );
    await claim.whenSomeoneWaits();
    await claim.file();
    expect(await request).toMatchObject({ code: "claim_open" });
    expect(await withdrawalRows(member.id)).toEqual([]);
  });

  it("completing a withdrawal waits for the member's accounts in the ledger's id order, never holding the deposit while waiting", async () => {
    // The available account is created first (top-up), so it has the lower id; depositFunds locks it first.
    const member = await withDeposit(1_000, 10_000);
    const now = new Date("2036-03-01T00:00:00Z");
    await requestDepositWithdrawal(t.db, member.id, 3_000, key(), now);
    let locked!: () => void;
    let go!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const proceed = new Promise<void>((resolve) => (go = resolve));
    let depositFree: boolean | undefined;
    // Another operation holds the available account and then needs the deposit account, as depositFunds does.
    const holder = t.db.transaction(async (tx) => {
      await lockLedgerAccounts(tx, [{ kind: "member_available", userId: member.id }]);
      locked();
      await proceed;
      depositFree = await tx
        .transaction((savepoint) =>
          savepoint.execute(sql`select id from ledger_accounts where kind = 'member_deposit' and user_id = ${member.id} for update nowait`),
        )
        .then(
          () => true,
          () => false,
        );
    });
    await lockHeld;
    const run = completeDueWithdrawals(t.db, new Date(now.getTime() + 15 * DAY));
    if (engine === "PostgreSQL") await untilATransactionWaitsForALock(t.db, "the completion to wait for the available account");
    go();
    await holder;
    // Had the completion locked the deposit alone first, it would hold it while waiting: a deadlock.
    expect(depositFree).toBe(true);
    expect(await run).toBe(1);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 4_000, held: 0, deposit: 7_000 });
    await expectInvariants();
  });
});
