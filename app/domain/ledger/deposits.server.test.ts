import { describe, expect, it } from "vitest";
import { eventBus } from "~/lib/events.server";
import { engine } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import {
  cancelDepositWithdrawal,
  completeDueWithdrawals,
  depositFunds,
  DEPOSIT_WITHDRAWAL_DAYS,
  getDepositSummary,
  listDepositLog,
  requestDepositWithdrawal,
} from "./deposits.server";
import {
  cancelPending,
  compensate,
  DAY,
  events,
  expectInvariants,
  expectNothingChanges,
  firstPage,
  funded,
  key,
  t,
  setUpDepositDatabase,
  withDeposit,
  withdrawalRows,
} from "../../../tests/setup/deposits";
import { getBalances, listBalanceLog } from "./balances.server";

setUpDepositDatabase();

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
