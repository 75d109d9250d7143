import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claims, depositWithdrawals } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus, type EventOf } from "~/lib/events.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin } from "../../../tests/setup/ledger";
import {
  cancelDepositWithdrawal,
  completeDueWithdrawals,
  depositFunds,
  DEPOSIT_WITHDRAWAL_DAYS,
  getDepositSummary,
  listDepositLog,
  requestDepositWithdrawal,
} from "./deposits.server";
import { waitFor } from "../../../tests/setup/wait";
import { lockLedgerAccounts, postTransfers } from "./ledger.server";
import { runOperation } from "./operations.server";
import { getBalances, listBalanceLog, topUp } from "./wallet.server";

let t: TestDatabase;
let admin: UserRow;
let keyCounter = 0;
const key = () => `deposit-key-${++keyCounter}`;
const firstPage = { page: 1, perPage: 10 };
const DAY = 86_400_000;
const events: EventOf<"deposit.changed">[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
  eventBus(t.db).subscribe("deposit.changed", (event) => void events.push(event));
});
afterAll(async () => {
  await t.destroy();
});

async function funded(kopecks: number): Promise<UserRow> {
  const member = await makeUser(t.db);
  if (kopecks > 0) await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

/** A member with `available` on their balance and `deposit` locked in their deposit. */
async function withDeposit(available: number, deposit: number): Promise<UserRow> {
  const member = await funded(available + deposit);
  await depositFunds(t.db, member.id, deposit, key());
  return member;
}

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
      await waitFor(async () => {
        const [row] = await t.db
          .select({ waiting: sql<number>`count(*)`.mapWith(Number) })
          .from(sql`pg_stat_activity`)
          .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
        return (row?.waiting ?? 0) > 0;
      }, "another transaction to wait for the deposit lock");
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

/** Pays `amount` from the accused's deposit to the claimant, as an upheld claim's compensation does. */
async function compensate(accusedId: number, claimantId: number, amount: number): Promise<void> {
  await runOperation(t.db, null, key(), "test.compensation", { accusedId, amount }, (tx, operation) =>
    postTransfers(tx, operation.id, [
      { kind: "compensation", from: { kind: "member_deposit", userId: accusedId }, to: { kind: "member_available", userId: claimantId }, amount },
    ]),
  );
}

async function withdrawalRows(userId: number) {
  return t.db.select().from(depositWithdrawals).where(eq(depositWithdrawals.userId, userId)).orderBy(depositWithdrawals.id);
}

/** Cancels `userId`'s pending withdrawal, so later scheduler runs of other tests count only their own. */
async function cancelPending(userId: number): Promise<void> {
  const { pending } = await getDepositSummary(t.db, userId);
  if (pending) await cancelDepositWithdrawal(t.db, userId, pending.id, key());
}

async function expectInvariants() {
  expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
}

/** Runs `refused`, expects it to reject like `expected`, and checks that nothing changed. */
async function expectNothingChanges(refused: () => Promise<unknown>, expected: object) {
  const before = await ledgerSnapshot(t.db);
  const [withdrawalsBefore] = await t.db.select({ value: count() }).from(depositWithdrawals);
  await expect(refused()).rejects.toMatchObject(expected);
  const after = await ledgerSnapshot(t.db);
  const [withdrawalsAfter] = await t.db.select({ value: count() }).from(depositWithdrawals);
  expect([after.transfers, after.operations, withdrawalsAfter!.value]).toEqual([before.transfers, before.operations, withdrawalsBefore!.value]);
}

describe(`deposits on ${engine}`, () => {
  it("locks part of the balance as the deposit, logs it on both sides and announces it", async () => {
    const member = await funded(50_000);
    events.length = 0;
    const result = await depositFunds(t.db, member.id, 12_000, key());
    expect(result).toMatchObject({ amount: 12_000, deposit: 12_000, available: 38_000 });
    await depositFunds(t.db, member.id, 3_000, key());
    expect(await getBalances(t.db, member.id)).toEqual({ available: 35_000, held: 0, deposit: 15_000 });
    expect(await getDepositSummary(t.db, member.id)).toEqual({ deposit: 15_000, pending: null, openClaims: 0 });

    const log = await listDepositLog(t.db, member.id, firstPage);
    expect(log).toMatchObject({ total: 2, totalPages: 1 });
    expect(log.items.map((e) => [e.type, e.amount, e.balanceAfter, e.counterparty])).toEqual([
      ["deposit", 3_000, 15_000, null],
      ["deposit", 12_000, 12_000, null],
    ]);
    expect(log.items[1]).toEqual({
      id: result.transferId,
      type: "deposit",
      amount: 12_000,
      counterparty: null,
      createdAt: expect.any(String),
      balanceAfter: 12_000,
    });
    const balanceLog = await listBalanceLog(t.db, member.id, firstPage);
    expect(balanceLog.items.map((e) => [e.type, e.amount, e.balanceAfter, e.counterparty])).toEqual([
      ["deposit", -3_000, 35_000, null],
      ["deposit", -12_000, 38_000, null],
      ["topup", 50_000, 50_000, null],
    ]);
    await eventBus(t.db).drain();
    expect(events).toEqual([
      { type: "deposit.changed", userId: member.id, deposit: 12_000 },
      { type: "deposit.changed", userId: member.id, deposit: 15_000 },
    ]);
    await expectInvariants();
  });

  it("refuses more than the available balance and bad amounts, changing nothing", async () => {
    const member = await funded(1_000);
    await expectNothingChanges(() => depositFunds(t.db, member.id, 1_001, key()), {
      status: 422,
      code: "insufficient_funds",
      message: "Недостаточно средств на балансе",
    });
    await expectNothingChanges(() => depositFunds(t.db, member.id, 0, key()), { status: 400, code: "invalid_amount" });
    await expectNothingChanges(() => depositFunds(t.db, member.id, 10.5, key()), { code: "invalid_amount" });
    expect(await getBalances(t.db, member.id)).toEqual({ available: 1_000, held: 0, deposit: 0 });
    expect((await listDepositLog(t.db, member.id, firstPage)).items).toEqual([]);
  });

  it("a retried deposit moves money once and is announced once; the key for another amount is a conflict", async () => {
    const member = await funded(10_000);
    events.length = 0;
    const first = await depositFunds(t.db, member.id, 4_000, "lock-1");
    const retries = await Promise.all([1, 2, 3].map(() => depositFunds(t.db, member.id, 4_000, "lock-1")));
    for (const retry of retries) expect(retry).toEqual(first);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 6_000, held: 0, deposit: 4_000 });
    await expectNothingChanges(() => depositFunds(t.db, member.id, 5_000, "lock-1"), { status: 409, code: "idempotency_key_reused" });
    await eventBus(t.db).drain();
    expect(events.filter((e) => e.userId === member.id)).toHaveLength(1);
  });
});

describe(`deposit withdrawals on ${engine}`, () => {
  it("a request waits 14 days with the money still in the deposit, then the scheduler returns it once", async () => {
    const member = await withDeposit(1_000, 20_000);
    const now = new Date("2031-03-01T12:00:00Z");
    const pending = await requestDepositWithdrawal(t.db, member.id, 15_000, "withdraw-1", now);
    expect(pending).toEqual({
      id: expect.any(Number),
      amount: 15_000,
      requestedAt: now.toISOString(),
      availableAt: "2031-03-15T12:00:00.000Z",
      blockedByClaim: false,
    });
    expect(DEPOSIT_WITHDRAWAL_DAYS).toBe(14);
    expect(await requestDepositWithdrawal(t.db, member.id, 15_000, "withdraw-1", now)).toEqual(pending);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 1_000, held: 0, deposit: 20_000 });
    expect(await getDepositSummary(t.db, member.id)).toEqual({ deposit: 20_000, pending, openClaims: 0 });

    expect(await completeDueWithdrawals(t.db, new Date(now.getTime() + 14 * DAY - 1))).toBe(0);
    expect((await getBalances(t.db, member.id)).deposit).toBe(20_000);

    events.length = 0;
    const due = new Date(now.getTime() + 14 * DAY);
    const counts = await Promise.all([completeDueWithdrawals(t.db, due), completeDueWithdrawals(t.db, due)]);
    expect(counts[0]! + counts[1]!).toBe(1);
    expect(await completeDueWithdrawals(t.db, new Date(now.getTime() + 30 * DAY))).toBe(0);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 16_000, held: 0, deposit: 5_000 });
    const [row] = await withdrawalRows(member.id);
    expect(row).toMatchObject({ state: "completed", completedAmount: 15_000, transferId: expect.any(Number), closedAt: due });
    expect(await getDepositSummary(t.db, member.id)).toEqual({ deposit: 5_000, pending: null, openClaims: 0 });
    expect((await listDepositLog(t.db, member.id, firstPage)).items[0]).toEqual({
      id: row!.transferId,
      type: "withdrawal",
      amount: -15_000,
      counterparty: null,
      createdAt: expect.any(String),
      balanceAfter: 5_000,
    });
    expect((await listBalanceLog(t.db, member.id, firstPage)).items[0]).toMatchObject({
      type: "deposit_withdrawal",
      amount: 15_000,
      counterparty: null,
      balanceAfter: 16_000,
    });
    await eventBus(t.db).drain();
    expect(events).toEqual([{ type: "deposit.changed", userId: member.id, deposit: 5_000 }]);
    await expectInvariants();
  });

  it("refuses a second pending request, more than the deposit and bad amounts, changing nothing", async () => {
    const member = await withDeposit(0, 10_000);
    await expectNothingChanges(() => requestDepositWithdrawal(t.db, member.id, 10_001, key()), {
      status: 422,
      code: "insufficient_deposit",
      message: "На депозите нет такой суммы",
    });
    await expectNothingChanges(() => requestDepositWithdrawal(t.db, member.id, -1, key()), { status: 400, code: "invalid_amount" });
    const stranger = await funded(5_000);
    await expectNothingChanges(() => requestDepositWithdrawal(t.db, stranger.id, 100, key()), { code: "insufficient_deposit" });

    await requestDepositWithdrawal(t.db, member.id, 4_000, key());
    await expectNothingChanges(() => requestDepositWithdrawal(t.db, member.id, 1_000, key()), {
      status: 409,
      code: "withdrawal_pending",
      message: "Заявка на вывод депозита уже подана: дождитесь её исполнения или отмените её",
    });
    expect(await withdrawalRows(member.id)).toHaveLength(1);
    await cancelPending(member.id);
  });

  it("two concurrent requests with different keys leave one pending withdrawal", async () => {
    const member = await withDeposit(0, 10_000);
    const outcomes = await Promise.allSettled([
      requestDepositWithdrawal(t.db, member.id, 1_000, key()),
      requestDepositWithdrawal(t.db, member.id, 2_000, key()),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === "rejected");
    expect(rejected?.reason).toMatchObject({ code: "withdrawal_pending" });
    expect(await withdrawalRows(member.id)).toHaveLength(1);
    await cancelPending(member.id);
  });

  it("a cancelled request is never paid and frees the way for a new one", async () => {
    const member = await withDeposit(0, 10_000);
    const now = new Date("2032-01-01T00:00:00Z");
    const pending = await requestDepositWithdrawal(t.db, member.id, 6_000, key(), now);
    const other = await makeUser(t.db);
    await expectNothingChanges(() => cancelDepositWithdrawal(t.db, other.id, pending.id, key()), { status: 404, code: "withdrawal_not_found" });
    await expectNothingChanges(() => cancelDepositWithdrawal(t.db, member.id, 2_147_483_647, key()), { code: "withdrawal_not_found" });
    expect(await cancelDepositWithdrawal(t.db, member.id, pending.id, "cancel-1")).toEqual({ id: pending.id, cancelled: true });
    expect(await cancelDepositWithdrawal(t.db, member.id, pending.id, "cancel-1")).toEqual({ id: pending.id, cancelled: true });
    await expectNothingChanges(() => cancelDepositWithdrawal(t.db, member.id, pending.id, key()), { status: 409, code: "withdrawal_closed" });
    expect(await getDepositSummary(t.db, member.id)).toEqual({ deposit: 10_000, pending: null, openClaims: 0 });

    expect(await completeDueWithdrawals(t.db, new Date(now.getTime() + 20 * DAY))).toBe(0);
    expect((await getBalances(t.db, member.id)).deposit).toBe(10_000);
    const next = await requestDepositWithdrawal(t.db, member.id, 10_000, key(), now);
    expect(next.id).not.toBe(pending.id);
    expect((await withdrawalRows(member.id)).map((r) => r.state)).toEqual(["cancelled", "pending"]);
    await cancelPending(member.id);
  });

  it("pays only what is left after a compensation, and completes with nothing when the deposit is empty", async () => {
    const [partly, emptied, claimant] = [await withDeposit(0, 10_000), await withDeposit(0, 8_000), await makeUser(t.db)];
    const now = new Date("2033-05-01T00:00:00Z");
    await requestDepositWithdrawal(t.db, partly.id, 10_000, key(), now);
    await requestDepositWithdrawal(t.db, emptied.id, 5_000, key(), now);
    await compensate(partly.id, claimant.id, 7_500);
    await compensate(emptied.id, claimant.id, 8_000);

    const compensation = (await listDepositLog(t.db, partly.id, firstPage)).items[0];
    expect(compensation).toMatchObject({
      type: "compensation",
      amount: -7_500,
      counterparty: { id: claimant.id, username: claimant.username },
      balanceAfter: 2_500,
    });
    expect((await listBalanceLog(t.db, claimant.id, firstPage)).items[0]).toMatchObject({
      type: "claim_compensation",
      amount: 8_000,
      counterparty: { id: emptied.id, username: emptied.username },
    });

    expect(await completeDueWithdrawals(t.db, new Date(now.getTime() + 14 * DAY))).toBe(2);
    expect(await getBalances(t.db, partly.id)).toEqual({ available: 2_500, held: 0, deposit: 0 });
    expect(await withdrawalRows(partly.id)).toMatchObject([{ state: "completed", amount: 10_000, completedAmount: 2_500, transferId: expect.any(Number) }]);
    expect(await getBalances(t.db, emptied.id)).toEqual({ available: 0, held: 0, deposit: 0 });
    expect(await withdrawalRows(emptied.id)).toMatchObject([{ state: "completed", amount: 5_000, completedAmount: 0, transferId: null }]);
    expect((await listDepositLog(t.db, emptied.id, firstPage)).total).toBe(2);
    await expectInvariants();
  });
});

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
    if (engine === "PostgreSQL") {
      await waitFor(async () => {
        const [row] = await t.db
          .select({ waiting: sql<number>`count(*)`.mapWith(Number) })
          .from(sql`pg_stat_activity`)
          .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
        return (row?.waiting ?? 0) > 0;
      }, "the completion to wait for the available account");
    }
    go();
    await holder;
    // Had the completion locked the deposit alone first, it would hold it while waiting: a deadlock.
    expect(depositFree).toBe(true);
    expect(await run).toBe(1);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 4_000, held: 0, deposit: 7_000 });
    await expectInvariants();
  });
});
