/**
 * The confirmation steps of the wallet and the deposit (docs/product/interface.md#money-confirmations):
 * previewHoldRelease, previewDeposit, previewWithdrawal, previewWithdrawalCancel and previewTopUp
 * show what would move — the amount,
 * no fee, the balances before and after — refuse what the real operation would refuse, and
 * move nothing: the ledger, the holds and the withdrawals stay as they were.
 */
import { count, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claims, depositWithdrawals, ledgerHolds, ledgerTransfers } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin } from "../../../tests/setup/ledger";
import { previewDeposit, previewWithdrawal, previewWithdrawalCancel } from "./deposit-preview.server";
import { cancelDepositWithdrawal, depositFunds, requestDepositWithdrawal } from "./deposits.server";
import { previewHoldRelease } from "./holds.server";
import { previewTopUp } from "./topup-preview.server";
import { releaseHold, topUp, transferToMember } from "./wallet.server";
import { getBalances } from "./balances.server";

let t: TestDatabase;
let admin: UserRow;
let counter = 0;
const key = () => `preview-key-${++counter}`;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
});
afterAll(async () => {
  await t.destroy();
});

async function funded(kopecks: number): Promise<UserRow> {
  const member = await makeUser(t.db);
  await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

/** Everything a preview could have touched: transfers, unreleased holds, withdrawal requests. */
async function moneyState() {
  const [[transfers], [open], [withdrawals], ledger] = await Promise.all([
    t.db.select({ value: count() }).from(ledgerTransfers),
    t.db.select({ value: count() }).from(ledgerHolds).where(isNull(ledgerHolds.releasedAt)),
    t.db.select({ value: count() }).from(depositWithdrawals),
    ledgerSnapshot(t.db),
  ]);
  return { transfers: transfers!.value, heldOpen: open!.value, withdrawals: withdrawals!.value, ledger };
}

describe(`money confirmation previews on ${engine}`, () => {
  it("previewHoldRelease shows the recipient, the amount and the sender's unchanged balance, and releases nothing", async () => {
    const [sender, recipient] = [await funded(10_000), await makeUser(t.db)];
    const sent = await transferToMember(t.db, sender.id, recipient.id, 2_500, { holdHours: 24, memo: "за ключ" }, key(), new Date("2030-01-01T00:00:00Z"));
    const before = await moneyState();

    const preview = await previewHoldRelease(t.db, sender.id, sent.holdId!);
    expect(preview).toEqual({
      holdId: sent.holdId,
      recipient: { id: recipient.id, username: recipient.username },
      amount: 2_500,
      fee: 0,
      memo: "за ключ",
      releaseAt: "2030-01-02T00:00:00.000Z",
      balanceBefore: 7_500,
      balanceAfter: 7_500,
    });
    expect(await moneyState()).toEqual(before);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 2_500, deposit: 0 });
  });

  it("previewHoldRelease refuses what releaseHold refuses: another member's hold, an unknown one, a released one", async () => {
    const [sender, recipient] = [await funded(10_000), await makeUser(t.db)];
    const sent = await transferToMember(t.db, sender.id, recipient.id, 1_000, { holdHours: 1 }, key());
    await expect(previewHoldRelease(t.db, recipient.id, sent.holdId!)).rejects.toMatchObject({ status: 404, code: "hold_not_found" });
    await expect(previewHoldRelease(t.db, sender.id, 2_147_483_647)).rejects.toMatchObject({ status: 404, code: "hold_not_found" });
    await expect(previewHoldRelease(t.db, sender.id, -1)).rejects.toMatchObject({ code: "hold_not_found" });
    await releaseHold(t.db, sender.id, sent.holdId!, key());
    await expect(previewHoldRelease(t.db, sender.id, sent.holdId!)).rejects.toMatchObject({ status: 409, code: "hold_already_released" });
  });

  it("previewDeposit shows both balances before and after, and locks nothing", async () => {
    const member = await funded(50_000);
    await depositFunds(t.db, member.id, 10_000, key());
    const before = await moneyState();
    expect(await previewDeposit(t.db, member.id, 12_050)).toEqual({
      amount: 12_050,
      fee: 0,
      availableBefore: 40_000,
      availableAfter: 27_950,
      depositBefore: 10_000,
      depositAfter: 22_050,
    });
    expect(await moneyState()).toEqual(before);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 40_000, held: 0, deposit: 10_000 });
  });

  it("previewDeposit refuses a short balance and a bad amount", async () => {
    const member = await funded(1_000);
    await expect(previewDeposit(t.db, member.id, 1_001)).rejects.toMatchObject({ status: 422, code: "insufficient_funds" });
    await expect(previewDeposit(t.db, member.id, 0)).rejects.toMatchObject({ status: 400, code: "invalid_amount" });
  });

  it("previewWithdrawal shows the date the money comes back and the balances then, and requests nothing", async () => {
    const member = await funded(30_000);
    await depositFunds(t.db, member.id, 20_000, key());
    const before = await moneyState();
    expect(await previewWithdrawal(t.db, member.id, 5_000, new Date("2030-01-01T00:00:00Z"))).toEqual({
      amount: 5_000,
      fee: 0,
      availableBefore: 10_000,
      availableAfter: 15_000,
      depositBefore: 20_000,
      depositAfter: 15_000,
      availableAt: "2030-01-15T00:00:00.000Z",
    });
    expect(await moneyState()).toEqual(before);
  });

  it("previewWithdrawal refuses what the request would refuse: more than the deposit, a pending request, an open claim", async () => {
    const member = await funded(30_000);
    await depositFunds(t.db, member.id, 20_000, key());
    await expect(previewWithdrawal(t.db, member.id, 20_001)).rejects.toMatchObject({ status: 422, code: "insufficient_deposit" });
    await expect(previewWithdrawal(t.db, member.id, 0)).rejects.toMatchObject({ code: "invalid_amount" });
    await requestDepositWithdrawal(t.db, member.id, 1_000, key());
    await expect(previewWithdrawal(t.db, member.id, 1_000)).rejects.toMatchObject({ status: 409, code: "withdrawal_pending" });

    const accused = await funded(30_000);
    await depositFunds(t.db, accused.id, 20_000, key());
    const claimant = await makeUser(t.db);
    await t.db.insert(claims).values({ claimantId: claimant.id, accusedId: accused.id, amount: 5_000, description: "Деньги получены, товар не передан" });
    await expect(previewWithdrawal(t.db, accused.id, 1_000)).rejects.toMatchObject({ status: 409, code: "claim_open" });
  });

  it("previewWithdrawalCancel shows the amount staying in the deposit, and cancels nothing", async () => {
    const member = await funded(30_000);
    await depositFunds(t.db, member.id, 20_000, key());
    const pending = await requestDepositWithdrawal(t.db, member.id, 5_000, key());
    const before = await moneyState();
    expect(await previewWithdrawalCancel(t.db, member.id, pending.id)).toEqual({
      withdrawalId: pending.id,
      amount: 5_000,
      fee: 0,
      availableAt: pending.availableAt,
      deposit: 20_000,
      available: 10_000,
    });
    expect(await moneyState()).toEqual(before);
    const [row] = await t.db.select({ state: depositWithdrawals.state }).from(depositWithdrawals).where(eq(depositWithdrawals.id, pending.id));
    expect(row!.state).toBe("pending");
  });

  it("previewWithdrawalCancel refuses what the cancel would refuse: another member's request, an unknown one, a closed one", async () => {
    const [member, other] = [await funded(30_000), await makeUser(t.db)];
    await depositFunds(t.db, member.id, 20_000, key());
    const pending = await requestDepositWithdrawal(t.db, member.id, 5_000, key());
    await expect(previewWithdrawalCancel(t.db, other.id, pending.id)).rejects.toMatchObject({ status: 404, code: "withdrawal_not_found" });
    await expect(previewWithdrawalCancel(t.db, member.id, 0)).rejects.toMatchObject({ status: 404, code: "withdrawal_not_found" });
    await cancelDepositWithdrawal(t.db, member.id, pending.id, key());
    await expect(previewWithdrawalCancel(t.db, member.id, pending.id)).rejects.toMatchObject({ status: 409, code: "withdrawal_closed" });
  });

  it("previewTopUp shows the member and their balance after, and credits nothing", async () => {
    const member = await funded(1_000);
    const before = await moneyState();
    expect(await previewTopUp(t.db, admin.id, member.id, 25_050)).toEqual({
      member: { id: member.id, username: member.username },
      amount: 25_050,
      fee: 0,
      balanceBefore: 1_000,
      balanceAfter: 26_050,
    });
    expect(await moneyState()).toEqual(before);
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 1_000 });
  });

  it("previewTopUp refuses what topUp refuses: a member who is not an admin, a bad amount, an unknown member", async () => {
    const member = await makeUser(t.db);
    await expect(previewTopUp(t.db, member.id, member.id, 100)).rejects.toMatchObject({ status: 403, code: "not_admin" });
    await expect(previewTopUp(t.db, admin.id, member.id, 0)).rejects.toMatchObject({ status: 400, code: "invalid_amount" });
    await expect(previewTopUp(t.db, admin.id, 2_000_000_000, 100)).rejects.toMatchObject({ status: 404, code: "member_not_found" });
  });
});
