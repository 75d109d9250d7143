/**
 * Money of guarantor deals (docs/product/money.md#recipes): who pays what on funding,
 * completion, refund and split; the escrow always ends at 0; the ledger's invariants hold;
 * automatic completion 72 h after delivery pays once however often and however concurrently
 * the scheduler runs; two conflicting actions at once — exactly one wins (meaningful on
 * PostgreSQL, where they really overlap).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAccounts } from "~/db/schema";
import { topUp } from "~/domain/ledger/wallet.server";
import { getBalances } from "~/domain/ledger/balances.server";
import type { UserRow } from "~/domain/users/users.server";
import { AppError, Conflict } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin, promoteToModerator } from "../../../tests/setup/ledger";
import { applyDealAction, completeDueDeals, createDeal, getDeal } from "./deals.server";
import type { DealFeePayer } from "./types";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let counter = 0;
const key = () => `money-key-${++counter}`;
const now = new Date("2026-11-21T12:00:00Z");
const hours = (h: number) => new Date(now.getTime() + h * 3_600_000);
const deadline = new Date("2026-12-01T20:59:59Z");

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
  moderator = await makeUser(t.db);
  await promoteToModerator(t.db, moderator.id);
});
afterAll(async () => {
  await t.destroy();
});

async function platformFee(): Promise<number> {
  const [row] = await t.db.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.kind, "platform_fee"));
  return row!.balance;
}

async function escrow(dealId: number): Promise<number> {
  const [row] = await t.db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, "escrow"), eq(ledgerAccounts.reference, `deal:${dealId}`)));
  return row?.balance ?? 0;
}

async function expectInvariants() {
  expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
}

/** A funded deal of `amount` kopecks; the buyer starts with 10 000 ₽, the seller with 0. */
async function fundedDeal(amount: number, feePayer: DealFeePayer, deliver = false) {
  const [buyer, seller] = [await makeUser(t.db), await makeUser(t.db)];
  await topUp(t.db, admin.id, buyer.id, 1_000_000, key());
  const deal = await createDeal(t.db, buyer.id, { counterparty: seller.id, role: "buyer", amount, description: "Товар", deadline, feePayer }, key(), now);
  await applyDealAction(t.db, seller.id, deal.id, "accept", {}, key(), now);
  const funded = await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key(), now);
  if (deliver) await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, key(), now);
  return { buyer, seller, deal: funded };
}

describe(`deal money on ${engine}`, () => {
  it.each([
    ["buyer", 123_457, 6_173, 0],
    ["seller", 123_457, 0, 6_173],
    ["split", 123_457, 3_087, 3_086],
    ["seller", 10_000, 0, 5_000],
  ] as const)(
    "fee paid by %s on %i kopecks: buyer pays amount + buyer share, seller gets amount − seller share",
    async (feePayer, amount, buyerFee, sellerFee) => {
      const feeBefore = await platformFee();
      const { buyer, seller, deal } = await fundedDeal(amount, feePayer, true);
      expect(deal).toMatchObject({ buyerFee, sellerFee, fee: buyerFee + sellerFee });
      expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 1_000_000 - amount - buyerFee });
      expect(await escrow(deal.id)).toBe(amount + buyerFee);
      await applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, key(), now);
      expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 1_000_000 - amount - buyerFee });
      expect(await getBalances(t.db, seller.id)).toMatchObject({ available: amount - sellerFee });
      expect(await platformFee()).toBe(feeBefore + buyerFee + sellerFee);
      expect(await escrow(deal.id)).toBe(0);
      await expectInvariants();
    },
  );

  it("a refund by agreement returns amount + the buyer's fee share; no fee is taken", async () => {
    const feeBefore = await platformFee();
    const { buyer, seller, deal } = await fundedDeal(100_000, "split");
    await applyDealAction(t.db, buyer.id, deal.id, "request_cancel", {}, key(), now);
    await applyDealAction(t.db, seller.id, deal.id, "agree_cancel", {}, key(), now);
    expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 1_000_000 });
    expect(await getBalances(t.db, seller.id)).toMatchObject({ available: 0 });
    expect(await platformFee()).toBe(feeBefore);
    expect(await escrow(deal.id)).toBe(0);
    await expectInvariants();
  });

  it("a moderator's release pays like a confirmation; refund and split take no fee", async () => {
    const released = await fundedDeal(100_000, "buyer");
    await applyDealAction(t.db, released.buyer.id, released.deal.id, "dispute", { reason: "Спор" }, key(), now);
    const feeBefore = await platformFee();
    await applyDealAction(t.db, moderator.id, released.deal.id, "resolve", { resolution: "release", note: "Товар передан" }, key(), now);
    expect(await getBalances(t.db, released.seller.id)).toMatchObject({ available: 100_000 });
    expect(await platformFee()).toBe(feeBefore + 5_000);

    const split = await fundedDeal(100_000, "split", true);
    await applyDealAction(t.db, split.seller.id, split.deal.id, "dispute", { reason: "Спор" }, key(), now);
    await applyDealAction(t.db, moderator.id, split.deal.id, "resolve", { resolution: "split", sellerShare: 30_001, note: "Частично" }, key(), now);
    expect(await getBalances(t.db, split.seller.id)).toMatchObject({ available: 30_001 });
    expect(await getBalances(t.db, split.buyer.id)).toMatchObject({ available: 1_000_000 - 30_001 });
    expect(await platformFee()).toBe(feeBefore + 5_000);

    const refunded = await fundedDeal(100_000, "buyer");
    await applyDealAction(t.db, refunded.seller.id, refunded.deal.id, "dispute", { reason: "Спор" }, key(), now);
    await applyDealAction(t.db, moderator.id, refunded.deal.id, "resolve", { resolution: "refund", note: "Не передан" }, key(), now);
    expect(await getBalances(t.db, refunded.buyer.id)).toMatchObject({ available: 1_000_000 });
    for (const id of [released.deal.id, split.deal.id, refunded.deal.id]) expect(await escrow(id)).toBe(0);
    await expectInvariants();
  });

  it("a retried fund or confirm with the same key moves the money once", async () => {
    const [buyer, seller] = [await makeUser(t.db), await makeUser(t.db)];
    await topUp(t.db, admin.id, buyer.id, 500_000, key());
    const deal = await createDeal(
      t.db,
      seller.id,
      { counterparty: buyer.id, role: "seller", amount: 200_000, description: "Товар", deadline, feePayer: "buyer" },
      key(),
      now,
    );
    await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, key(), now);
    await Promise.all([1, 2, 3].map(() => applyDealAction(t.db, buyer.id, deal.id, "fund", {}, "fund-once", now)));
    expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 500_000 - 210_000 });
    await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, key(), now);
    await Promise.all([1, 2].map(() => applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, "confirm-once", now)));
    expect(await getBalances(t.db, seller.id)).toMatchObject({ available: 200_000 });
    await expectInvariants();
  });
});

describe(`automatic completion on ${engine}`, () => {
  it("completes a delivered deal 72 h after delivery, once, however many schedulers run", async () => {
    const { buyer, seller, deal } = await fundedDeal(100_000, "seller", true);
    const completedEvents: number[] = [];
    const stop = eventBus(t.db).subscribe("deal.completed", (event) => void completedEvents.push(event.dealId));
    expect(await completeDueDeals(t.db, hours(71))).toBe(0);
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("delivered");
    const runs = await Promise.all([completeDueDeals(t.db, hours(72)), completeDueDeals(t.db, hours(72)), completeDueDeals(t.db, hours(73))]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await completeDueDeals(t.db, hours(100))).toBe(0);
    const detail = await getDeal(t.db, seller.id, deal.id);
    expect(detail.state).toBe("completed");
    expect(detail.transitions.at(-1)).toMatchObject({ actor: null, action: "auto_complete", fromState: "delivered", toState: "completed" });
    expect(await getBalances(t.db, seller.id)).toMatchObject({ available: 95_000 });
    expect(await escrow(deal.id)).toBe(0);
    await eventBus(t.db).drain();
    stop();
    expect(completedEvents.filter((id) => id === deal.id)).toHaveLength(1);
    await expectInvariants();
  });

  it("leaves a disputed deal alone even when its delivery is long past", async () => {
    const { buyer, seller, deal } = await fundedDeal(100_000, "buyer", true);
    await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Не то" }, key(), hours(10));
    expect(await completeDueDeals(t.db, hours(500))).toBe(0);
    expect((await getDeal(t.db, seller.id, deal.id)).state).toBe("disputed");
    expect(await getBalances(t.db, seller.id)).toMatchObject({ available: 0 });
  });
});

describe(`conflicting actions at once on ${engine}`, () => {
  it("confirm and dispute racing: exactly one wins, the other is deal_state_changed", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { buyer, seller, deal } = await fundedDeal(100_000, "split", true);
      const outcomes = await Promise.allSettled([
        applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, key(), now),
        applyDealAction(t.db, seller.id, deal.id, "dispute", { reason: "Передумал" }, key(), now),
        completeDueDeals(t.db, hours(80)),
      ]);
      const [confirm, dispute, auto] = outcomes;
      expect(auto.status).toBe("fulfilled");
      // Exactly one of the three transitions happened, and the losers were told so.
      const detail = await getDeal(t.db, buyer.id, deal.id);
      const afterDelivery = detail.transitions.slice(detail.transitions.findIndex((x) => x.action === "deliver") + 1);
      expect(afterDelivery).toHaveLength(1);
      const winner = afterDelivery[0]!.action;
      expect(confirm.status === "fulfilled").toBe(winner === "confirm");
      expect(dispute.status === "fulfilled").toBe(winner === "dispute");
      for (const lost of [confirm, dispute].filter((o) => o.status === "rejected")) {
        expect(lost.reason).toBeInstanceOf(Conflict);
        expect((lost.reason as AppError).code).toBe("deal_state_changed");
      }
      const state = detail.state;
      const sellerPaid = (await getBalances(t.db, seller.id)).available;
      if (state === "completed") expect(sellerPaid).toBe(97_500);
      else {
        expect(state).toBe("disputed");
        expect(sellerPaid).toBe(0);
        expect(await escrow(deal.id)).toBe(102_500);
      }
    }
    await expectInvariants();
  });

  it("twenty deals under a burst of conflicting actions: every escrow matches its deal's state and the ledger balances", async () => {
    const deals = await Promise.all(Array.from({ length: 20 }, () => fundedDeal(100_000, "split", true)));
    await Promise.allSettled(
      deals.flatMap(({ buyer, seller, deal }) => [
        applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, key(), now),
        applyDealAction(t.db, seller.id, deal.id, "dispute", { reason: "Спор" }, key(), now),
        applyDealAction(t.db, buyer.id, deal.id, "request_cancel", {}, key(), now),
        applyDealAction(t.db, seller.id, deal.id, "request_cancel", {}, key(), now),
        applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, key(), now),
        completeDueDeals(t.db, hours(80)),
      ]),
    );
    for (const { buyer, seller, deal } of deals) {
      const detail = await getDeal(t.db, buyer.id, deal.id);
      const held = ["funded", "delivered", "disputed"].includes(detail.state);
      expect(await escrow(deal.id), `deal ${deal.id} in ${detail.state}`).toBe(held ? 102_500 : 0);
      expect((await getBalances(t.db, seller.id)).available).toBe(detail.state === "completed" ? 97_500 : 0);
      expect((await getBalances(t.db, buyer.id)).available).toBe(1_000_000 - 102_500);
      // Confirm, dispute and the scheduler all leave «delivered»: exactly one of them did.
      const left = detail.transitions.filter((x) => x.fromState === "delivered" && x.toState !== "delivered");
      expect(left).toHaveLength(1);
    }
    await expectInvariants();
  });
});
