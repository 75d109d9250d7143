import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin } from "../../../tests/setup/ledger";
import { applyDealAction, createDeal, getDeal } from "../deals/deals.server";
import { depositFunds, getDepositSummary, requestDepositWithdrawal } from "./deposits.server";
import { runDueMoneyJobs } from "./scheduler.server";
import { getBalances, topUp, transferToMember } from "./wallet.server";

let t: TestDatabase;
let admin: UserRow;
beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
});
afterAll(async () => {
  await t.destroy();
});

const NOTHING_DUE = { holdsReleased: 0, withdrawalsCompleted: 0, dealsCompleted: 0 };

describe(`money scheduler on ${engine}`, () => {
  it("releases a held transfer once its time has come, and only once however often it ticks", async () => {
    const [sender, recipient] = [await makeUser(t.db), await makeUser(t.db)];
    await topUp(t.db, admin.id, sender.id, 50_000, "scheduler-topup");
    const sentAt = new Date("2026-11-21T10:00:00Z");
    await transferToMember(t.db, sender.id, recipient.id, 20_000, { holdHours: 24 }, "scheduler-hold", sentAt);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 20_000, deposit: 0 });

    // Not yet due: a tick an hour before the release time changes nothing.
    expect(await runDueMoneyJobs(t.db, new Date("2026-11-22T09:00:00Z"))).toEqual(NOTHING_DUE);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 20_000, deposit: 0 });

    // Due: two processes ticking at the same moment release it once between them.
    const due = new Date("2026-11-22T10:00:01Z");
    const ticks = await Promise.all([runDueMoneyJobs(t.db, due), runDueMoneyJobs(t.db, due)]);
    expect(ticks.reduce((sum, tick) => sum + tick.holdsReleased, 0)).toBe(1);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 20_000, held: 0, deposit: 0 });
    expect(await runDueMoneyJobs(t.db, new Date("2026-11-23T00:00:00Z"))).toEqual(NOTHING_DUE);
    expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
  });

  it("completes a delivered deal 72 hours after delivery and a deposit withdrawal after 14 days, once, from rows alone", async () => {
    const [buyer, seller] = [await makeUser(t.db), await makeUser(t.db)];
    await topUp(t.db, admin.id, buyer.id, 200_000, "scheduler-topup-buyer");
    await topUp(t.db, admin.id, seller.id, 50_000, "scheduler-topup-seller");
    const start = new Date("2030-01-10T12:00:00Z");
    const deal = await createDeal(
      t.db,
      buyer.id,
      { counterparty: seller.id, role: "buyer", amount: 100_000, description: "Аккаунт", deadline: new Date("2030-01-20T12:00:00Z"), feePayer: "buyer" },
      "scheduler-deal",
      start,
    );
    await applyDealAction(t.db, seller.id, deal.id, "accept", {}, "scheduler-accept", start);
    await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, "scheduler-fund", start);
    await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, "scheduler-deliver", start);
    await depositFunds(t.db, seller.id, 30_000, "scheduler-deposit");
    await requestDepositWithdrawal(t.db, seller.id, 10_000, "scheduler-withdraw", start);

    // Nothing lives in memory: any process ticking later finds the due rows.
    expect(await runDueMoneyJobs(t.db, new Date("2030-01-13T11:59:00Z"))).toEqual(NOTHING_DUE);
    const afterDelivery = new Date("2030-01-13T12:00:01Z");
    const dealTicks = await Promise.all([runDueMoneyJobs(t.db, afterDelivery), runDueMoneyJobs(t.db, afterDelivery)]);
    expect(dealTicks.reduce((sum, tick) => sum + tick.dealsCompleted, 0)).toBe(1);
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("completed");
    // The seller got the amount (the buyer paid the 5 000-kopeck fee), less the deposit.
    expect(await getBalances(t.db, seller.id)).toEqual({ available: 50_000 + 100_000 - 30_000, held: 0, deposit: 30_000 });

    const afterFortnight = new Date("2030-01-24T12:00:01Z");
    const withdrawalTicks = await Promise.all([runDueMoneyJobs(t.db, afterFortnight), runDueMoneyJobs(t.db, afterFortnight)]);
    expect(withdrawalTicks.reduce((sum, tick) => sum + tick.withdrawalsCompleted, 0)).toBe(1);
    expect(await getBalances(t.db, seller.id)).toEqual({ available: 130_000, held: 0, deposit: 20_000 });
    expect((await getDepositSummary(t.db, seller.id)).pending).toBeNull();
    expect(await runDueMoneyJobs(t.db, new Date("2030-02-01T00:00:00Z"))).toEqual(NOTHING_DUE);
    expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
  });
});
