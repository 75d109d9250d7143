/**
 * The confirmation step of the deal actions that move money (docs/product/interface.md#money-confirmations):
 * previewDealAction shows what «Оплатить», «Подтвердить получение», «Согласиться на отмену» and a
 * moderator's resolution would move — who gets the money, the amount, the fee, the actor's
 * balance before and after — refuses what
 * applyDealAction would refuse, and moves nothing.
 */
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerTransfers } from "~/db/schema";
import { topUp } from "~/domain/ledger/wallet.server";
import { getBalances } from "~/domain/ledger/balances.server";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { promoteToAdmin, promoteToModerator } from "../../../tests/setup/ledger";
import { applyDealAction, createDeal, getDeal } from "./deals.server";
import { isConfirmedDealAction, previewDealAction } from "./preview.server";
import type { DealFeePayer } from "./types";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let counter = 0;
const key = () => `deal-preview-key-${++counter}`;
const now = new Date("2026-11-21T12:00:00Z");
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

async function transfers(): Promise<number> {
  const [row] = await t.db.select({ value: count() }).from(ledgerTransfers);
  return row!.value;
}

/** An accepted deal of `amount` kopecks; the buyer starts with `balance` kopecks. */
async function acceptedDeal(amount: number, feePayer: DealFeePayer, balance = 1_000_000) {
  const [buyer, seller] = [await makeUser(t.db), await makeUser(t.db)];
  await topUp(t.db, admin.id, buyer.id, balance, key());
  const deal = await createDeal(t.db, buyer.id, { counterparty: seller.id, role: "buyer", amount, description: "Аккаунт", deadline, feePayer }, key(), now);
  await applyDealAction(t.db, seller.id, deal.id, "accept", {}, key(), now);
  return { buyer, seller, deal };
}

describe(`deal confirmation previews on ${engine}`, () => {
  it("only the actions that move money are confirmed first: funding, confirming, agreeing to cancel, resolving", () => {
    expect(
      ["accept", "cancel", "fund", "deliver", "confirm", "request_cancel", "agree_cancel", "dispute", "resolve"].filter((a) =>
        isConfirmedDealAction(a as never),
      ),
    ).toEqual(["fund", "confirm", "agree_cancel", "resolve"]);
  });

  it("funding: the seller, the amount, the buyer's fee share and the balance after; nothing moves", async () => {
    const { buyer, seller, deal } = await acceptedDeal(100_000, "split");
    const before = await transfers();
    expect(await previewDealAction(t.db, buyer.id, deal.id, "fund")).toEqual({
      dealId: deal.id,
      action: "fund",
      description: "Аккаунт",
      counterparty: { id: seller.id, username: seller.username, image: null, ranks: [] },
      amount: 100_000,
      fee: 2_500,
      moved: 102_500,
      toSeller: 0,
      toBuyer: 0,
      buyer: { id: buyer.id, username: buyer.username, image: null, ranks: [] },
      seller: { id: seller.id, username: seller.username, image: null, ranks: [] },
      resolution: null,
      sellerShare: null,
      note: null,
      balanceBefore: 1_000_000,
      balanceAfter: 897_500,
    });
    expect(await transfers()).toBe(before);
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("accepted");
    expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 1_000_000 });
  });

  it("confirming: the seller's payout less their fee share; the buyer's balance stays; nothing moves", async () => {
    const { buyer, seller, deal } = await acceptedDeal(100_000, "seller");
    await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key(), now);
    await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, key(), now);
    const before = await transfers();
    expect(await previewDealAction(t.db, buyer.id, deal.id, "confirm")).toMatchObject({
      action: "confirm",
      counterparty: { id: seller.id },
      amount: 100_000,
      fee: 5_000,
      moved: 95_000,
      balanceBefore: 900_000,
      balanceAfter: 900_000,
    });
    expect(await transfers()).toBe(before);
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("delivered");
    expect(await getBalances(t.db, seller.id)).toMatchObject({ available: 0 });
  });

  it("refuses what the action would refuse: a short balance, the seller, a stranger, the wrong state, an unknown deal", async () => {
    const { buyer, seller, deal } = await acceptedDeal(100_000, "buyer", 104_999);
    await expect(previewDealAction(t.db, buyer.id, deal.id, "fund")).rejects.toMatchObject({
      status: 422,
      code: "insufficient_funds",
      message: expect.stringMatching(/^Недостаточно средств: для оплаты сделки нужно 1\s050,00\s₽ на балансе$/u),
    });
    await expect(previewDealAction(t.db, seller.id, deal.id, "fund")).rejects.toMatchObject({ status: 403, code: "buyer_only" });
    await expect(previewDealAction(t.db, (await makeUser(t.db)).id, deal.id, "fund")).rejects.toMatchObject({ status: 404, code: "deal_not_found" });
    await expect(previewDealAction(t.db, moderator.id, deal.id, "fund")).rejects.toMatchObject({ status: 403, code: "not_a_party" });
    await expect(previewDealAction(t.db, buyer.id, deal.id, "confirm")).rejects.toMatchObject({ status: 409, code: "deal_state_changed" });
    await expect(previewDealAction(t.db, buyer.id, 2_147_483_647, "fund")).rejects.toMatchObject({ status: 404, code: "deal_not_found" });
  });

  /** A funded deal of 100 000 kopecks, the buyer paying the fee (5 000) on top. */
  async function fundedDeal() {
    const parties = await acceptedDeal(100_000, "buyer");
    await applyDealAction(t.db, parties.buyer.id, parties.deal.id, "fund", {}, key(), now);
    return parties;
  }

  it("agreeing to cancel: the buyer gets the amount and their fee share back; nothing moves", async () => {
    const { buyer, seller, deal } = await fundedDeal();
    await applyDealAction(t.db, buyer.id, deal.id, "request_cancel", {}, key(), now);
    const before = await transfers();
    expect(await previewDealAction(t.db, seller.id, deal.id, "agree_cancel")).toMatchObject({
      action: "agree_cancel",
      counterparty: { id: buyer.id },
      fee: 0,
      toBuyer: 105_000,
      toSeller: 0,
      moved: 105_000,
      balanceBefore: 0,
      balanceAfter: 0,
    });
    expect(await transfers()).toBe(before);
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("funded");
    expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 895_000 });
    // The one who asked cannot agree to their own request.
    await expect(previewDealAction(t.db, buyer.id, deal.id, "agree_cancel")).rejects.toMatchObject({ status: 409 });
  });

  it("a moderator's resolution: who gets what for release, refund and split; nothing moves", async () => {
    const { buyer, seller, deal } = await fundedDeal();
    await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Не передал" }, key(), now);
    const before = await transfers();
    expect(await previewDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "release", note: "Передал" })).toMatchObject({
      counterparty: { id: seller.id },
      toSeller: 100_000,
      toBuyer: 0,
      fee: 5_000,
      note: "Передал",
    });
    expect(await previewDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund", note: "Не передал" })).toMatchObject({
      counterparty: { id: buyer.id },
      toSeller: 0,
      toBuyer: 105_000,
      fee: 0,
    });
    expect(await previewDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "split", sellerShare: 40_000, note: "Пополам" })).toMatchObject({
      resolution: "split",
      sellerShare: 40_000,
      toSeller: 40_000,
      toBuyer: 65_000,
      fee: 0,
      moved: 105_000,
    });
    expect(await transfers()).toBe(before);
    expect((await getDeal(t.db, moderator.id, deal.id)).state).toBe("disputed");
  });

  it("a resolution is refused as applyDealAction refuses it: no note, a bad share, a party, the wrong state", async () => {
    const { buyer, deal } = await fundedDeal();
    await expect(previewDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund", note: "x" })).rejects.toMatchObject({
      status: 409,
      code: "deal_state_changed",
    });
    await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Не передал" }, key(), now);
    await expect(previewDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund" })).rejects.toMatchObject({ code: "note_required" });
    await expect(previewDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "split", sellerShare: 100_000, note: "x" })).rejects.toMatchObject({
      status: 400,
      code: "invalid_seller_share",
    });
    await expect(previewDealAction(t.db, buyer.id, deal.id, "resolve", { resolution: "refund", note: "x" })).rejects.toMatchObject({ status: 403 });
  });
});
