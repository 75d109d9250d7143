/**
 * The guarantor deal state machine (docs/product/deals.md): every transition, every
 * refusal (who may do what in which state), the transition log, idempotent retries and access.
 * Money is checked in deals.money.test.ts.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blocks, dealTransitions } from "~/db/schema";
import { topUp } from "~/domain/ledger/wallet.server";
import { getBalances } from "~/domain/ledger/balances.server";
import type { UserRow } from "~/domain/users/users.server";
import { Conflict, Forbidden, InsufficientFunds, NotFound, ValidationFailed } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin, promoteToModerator } from "../../../tests/setup/ledger";
import { applyDealAction, createDeal, getDeal, listDealsOf, listDisputedDeals, type CreateDealInput } from "./deals.server";
import type { DealAction, DealDto } from "./types";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let counter = 0;
const key = () => `deal-key-${++counter}`;
const now = new Date("2026-11-21T12:00:00Z");
const deadline = new Date("2026-12-01T20:59:59Z");
const firstPage = { page: 1, perPage: 10 };

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

interface Parties {
  buyer: UserRow;
  seller: UserRow;
  deal: DealDto;
}

/** A fresh buyer (with `balance` kopecks) and seller and a 1 000 ₽ deal the seller proposed. */
async function proposed(balance = 200_000, input: Partial<CreateDealInput> = {}): Promise<Parties> {
  const [buyer, seller] = [await makeUser(t.db), await makeUser(t.db)];
  if (balance > 0) await topUp(t.db, admin.id, buyer.id, balance, key());
  const deal = await createDeal(
    t.db,
    seller.id,
    { counterparty: buyer.username, role: "seller", amount: 100_000, description: "Аккаунт Steam с 120 играми", deadline, feePayer: "split", ...input },
    key(),
    now,
  );
  return { buyer, seller, deal };
}

/** A deal driven through `actions` (each by the party who may take it). */
async function dealIn(state: "accepted" | "funded" | "delivered" | "disputed"): Promise<Parties> {
  const parties = await proposed();
  const { buyer, seller } = parties;
  const steps: [UserRow, DealAction][] = [[buyer, "accept"]];
  if (state !== "accepted") steps.push([buyer, "fund"]);
  if (state === "delivered") steps.push([seller, "deliver"]);
  let deal = parties.deal;
  for (const [who, action] of steps) deal = await applyDealAction(t.db, who.id, deal.id, action, {}, key(), now);
  if (state === "disputed") deal = await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Продавец не выходит на связь" }, key(), now);
  return { ...parties, deal };
}

async function expectRefused(promise: Promise<unknown>, type: new (...args: never[]) => Error, code: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expect(error).toMatchObject({ code });
  return error as Error;
}

describe(`creating a deal on ${engine}`, () => {
  it("either party proposes it; the fee and its shares are fixed at creation", async () => {
    const { buyer, seller, deal } = await proposed();
    expect(deal).toMatchObject({
      state: "created",
      buyer: { id: buyer.id, username: buyer.username },
      seller: { id: seller.id, username: seller.username },
      createdById: seller.id,
      amount: 100_000,
      fee: 5_000,
      buyerFee: 2_500,
      sellerFee: 2_500,
      feePayer: "split",
      deadline: deadline.toISOString(),
    });
    const asBuyer = await createDeal(
      t.db,
      buyer.id,
      { counterparty: `@${seller.username.toUpperCase()}`, role: "buyer", amount: 2_000_000, description: "Услуги", deadline, feePayer: "buyer" },
      key(),
      now,
    );
    expect(asBuyer).toMatchObject({ buyer: { id: buyer.id }, seller: { id: seller.id }, createdById: buyer.id, fee: 100_000, buyerFee: 100_000, sellerFee: 0 });
    const detail = await getDeal(t.db, seller.id, deal.id);
    expect(detail.transitions).toMatchObject([{ action: "create", fromState: "created", toState: "created", actor: { id: seller.id } }]);
  });

  it("refuses bad input with a field error and creates nothing", async () => {
    const [me, other] = [await makeUser(t.db), await makeUser(t.db)];
    const base: CreateDealInput = { counterparty: other.username, role: "buyer", amount: 100_000, description: "Товар", deadline, feePayer: "buyer" };
    await expectRefused(createDeal(t.db, me.id, { ...base, amount: 9_999 }, key(), now), ValidationFailed, "invalid_amount");
    await expectRefused(createDeal(t.db, me.id, { ...base, amount: 10_000.5 }, key(), now), ValidationFailed, "invalid_amount");
    await expectRefused(createDeal(t.db, me.id, { ...base, description: "   " }, key(), now), ValidationFailed, "invalid_description");
    await expectRefused(createDeal(t.db, me.id, { ...base, deadline: new Date("2026-11-20T00:00:00Z") }, key(), now), ValidationFailed, "invalid_deadline");
    await expectRefused(createDeal(t.db, me.id, { ...base, deadline: new Date("2028-01-01T00:00:00Z") }, key(), now), ValidationFailed, "invalid_deadline");
    await expectRefused(createDeal(t.db, me.id, { ...base, counterparty: "nobody_here_at_all" }, key(), now), NotFound, "counterparty_not_found");
    await expectRefused(createDeal(t.db, me.id, { ...base, counterparty: me.username }, key(), now), ValidationFailed, "deal_with_self");
    expect((await listDealsOf(t.db, me.id, firstPage)).total).toBe(0);
  });

  it("a member who blocked you cannot be offered a deal (docs/product/accounts.md#follows-and-blocks); blocking someone yourself does not stop you", async () => {
    const [me, blocker] = [await makeUser(t.db), await makeUser(t.db)];
    await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: me.id });
    const input: CreateDealInput = { counterparty: blocker.username, role: "buyer", amount: 50_000, description: "Товар", deadline, feePayer: "buyer" };
    await expectRefused(createDeal(t.db, me.id, input, key(), now), Forbidden, "blocked");
    expect((await listDealsOf(t.db, blocker.id, firstPage)).total).toBe(0);
    const offered = await createDeal(t.db, blocker.id, { ...input, counterparty: me.username }, key(), now);
    expect(offered.state).toBe("created");
  });

  it("a retried creation with the same key gives the same deal, not a second one", async () => {
    const [me, other] = [await makeUser(t.db), await makeUser(t.db)];
    const input: CreateDealInput = { counterparty: other.id, role: "buyer", amount: 50_000, description: "Товар", deadline, feePayer: "seller" };
    const [first, second] = await Promise.all([createDeal(t.db, me.id, input, "create-once", now), createDeal(t.db, me.id, input, "create-once", now)]);
    expect(second.id).toBe(first.id);
    expect((await listDealsOf(t.db, me.id, firstPage)).total).toBe(1);
    await expectRefused(createDeal(t.db, me.id, { ...input, amount: 60_000 }, "create-once", now), Conflict, "idempotency_key_reused");
  });
});

describe(`the happy path on ${engine}`, () => {
  it("created → accepted → funded → delivered → completed, each transition recorded with its actor", async () => {
    const { buyer, seller, deal } = await proposed();
    await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, key(), now);
    const funded = await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key(), now);
    expect(funded).toMatchObject({ state: "funded", fundedAt: now.toISOString() });
    const delivered = await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, key(), now);
    expect(delivered).toMatchObject({ state: "delivered", autoCompleteAt: new Date(now.getTime() + 72 * 3_600_000).toISOString() });
    const completed = await applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, key(), now);
    expect(completed).toMatchObject({ state: "completed", autoCompleteAt: null, closedAt: now.toISOString() });
    const detail = await getDeal(t.db, buyer.id, deal.id);
    expect(detail.transitions.map((x) => [x.actor?.id, x.action, x.fromState, x.toState])).toEqual([
      [seller.id, "create", "created", "created"],
      [buyer.id, "accept", "created", "accepted"],
      [buyer.id, "fund", "accepted", "funded"],
      [seller.id, "deliver", "funded", "delivered"],
      [buyer.id, "confirm", "delivered", "completed"],
    ]);
    expect(detail.viewer).toEqual({ role: "buyer", actions: [] });
  });
});

describe(`who may do what, in which state, on ${engine}`, () => {
  it("only the party who did not propose the deal accepts it", async () => {
    const { seller, deal, buyer } = await proposed();
    await expectRefused(applyDealAction(t.db, seller.id, deal.id, "accept", {}, key(), now), Forbidden, "creator_cannot_accept");
    expect((await getDeal(t.db, buyer.id, deal.id)).viewer.actions).toEqual(["accept", "cancel"]);
    expect((await getDeal(t.db, seller.id, deal.id)).viewer.actions).toEqual(["cancel"]);
  });

  it("only the buyer funds, only the seller delivers, only the buyer confirms", async () => {
    const accepted = await dealIn("accepted");
    await expectRefused(applyDealAction(t.db, accepted.seller.id, accepted.deal.id, "fund", {}, key(), now), Forbidden, "buyer_only");
    const funded = await dealIn("funded");
    await expectRefused(applyDealAction(t.db, funded.buyer.id, funded.deal.id, "deliver", {}, key(), now), Forbidden, "seller_only");
    await expectRefused(applyDealAction(t.db, funded.buyer.id, funded.deal.id, "confirm", {}, key(), now), Conflict, "deal_state_changed");
    const delivered = await dealIn("delivered");
    await expectRefused(applyDealAction(t.db, delivered.seller.id, delivered.deal.id, "confirm", {}, key(), now), Forbidden, "buyer_only");
    expect((await getDeal(t.db, delivered.buyer.id, delivered.deal.id)).viewer.actions).toEqual(["confirm", "request_cancel", "dispute"]);
    expect((await getDeal(t.db, delivered.seller.id, delivered.deal.id)).viewer.actions).toEqual(["request_cancel", "dispute"]);
  });

  it("either party cancels before funding; nobody can cancel alone after it", async () => {
    const created = await proposed();
    expect(await applyDealAction(t.db, created.seller.id, created.deal.id, "cancel", {}, key(), now)).toMatchObject({
      state: "cancelled",
      closedAt: now.toISOString(),
    });
    await expectRefused(applyDealAction(t.db, created.buyer.id, created.deal.id, "accept", {}, key(), now), Conflict, "deal_state_changed");
    const accepted = await dealIn("accepted");
    expect(await applyDealAction(t.db, accepted.buyer.id, accepted.deal.id, "cancel", {}, key(), now)).toMatchObject({ state: "cancelled" });
    const funded = await dealIn("funded");
    await expectRefused(applyDealAction(t.db, funded.buyer.id, funded.deal.id, "cancel", {}, key(), now), Conflict, "deal_state_changed");
  });

  it("after funding, one party asks to cancel and the other agrees: the buyer is refunded", async () => {
    const { buyer, seller, deal } = await dealIn("delivered");
    await expectRefused(applyDealAction(t.db, seller.id, deal.id, "agree_cancel", {}, key(), now), Conflict, "no_cancel_request");
    const requested = await applyDealAction(t.db, seller.id, deal.id, "request_cancel", {}, key(), now);
    expect(requested).toMatchObject({ state: "delivered", cancelRequestedBy: seller.id });
    await expectRefused(applyDealAction(t.db, seller.id, deal.id, "request_cancel", {}, key(), now), Conflict, "cancel_already_requested");
    await expectRefused(applyDealAction(t.db, seller.id, deal.id, "agree_cancel", {}, key(), now), Conflict, "no_cancel_request");
    expect((await getDeal(t.db, buyer.id, deal.id)).viewer.actions).toEqual(["confirm", "agree_cancel", "dispute"]);
    expect(await applyDealAction(t.db, buyer.id, deal.id, "agree_cancel", {}, key(), now)).toMatchObject({ state: "refunded" });
  });

  it("a cancellation asked for while funded lapses on delivery: the buyer cannot take a refund and keep the goods", async () => {
    const { buyer, seller, deal } = await dealIn("funded");
    const before = await getBalances(t.db, buyer.id);
    expect(await applyDealAction(t.db, seller.id, deal.id, "request_cancel", {}, key(), now)).toMatchObject({ cancelRequestedBy: seller.id });
    // The buyer stays silent; the seller delivers after all.
    expect(await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, key(), now)).toMatchObject({ state: "delivered", cancelRequestedBy: null });
    expect((await getDeal(t.db, buyer.id, deal.id)).viewer.actions).toEqual(["confirm", "request_cancel", "dispute"]);
    await expectRefused(applyDealAction(t.db, buyer.id, deal.id, "agree_cancel", {}, key(), now), Conflict, "no_cancel_request");
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("delivered");
    expect(await getBalances(t.db, buyer.id)).toEqual(before);
    // A request made in the current state still works as before.
    await applyDealAction(t.db, buyer.id, deal.id, "request_cancel", {}, key(), now);
    expect(await applyDealAction(t.db, seller.id, deal.id, "agree_cancel", {}, key(), now)).toMatchObject({ state: "refunded" });
  });

  it("a dispute withdraws a pending cancellation request", async () => {
    const { buyer, seller, deal } = await dealIn("funded");
    await applyDealAction(t.db, buyer.id, deal.id, "request_cancel", {}, key(), now);
    expect(await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Продавец тянет время" }, key(), now)).toMatchObject({
      state: "disputed",
      cancelRequestedBy: null,
    });
    expect((await getDeal(t.db, seller.id, deal.id)).viewer.actions).toEqual([]);
  });

  it("a dispute needs a reason and is open to either party only after funding", async () => {
    const accepted = await dealIn("accepted");
    await expectRefused(applyDealAction(t.db, accepted.buyer.id, accepted.deal.id, "dispute", { reason: "Обман" }, key(), now), Conflict, "deal_state_changed");
    const funded = await dealIn("funded");
    await expectRefused(applyDealAction(t.db, funded.seller.id, funded.deal.id, "dispute", { reason: "  " }, key(), now), ValidationFailed, "reason_required");
    const disputed = await applyDealAction(t.db, funded.seller.id, funded.deal.id, "dispute", { reason: "Покупатель не отвечает" }, key(), now);
    expect(disputed).toMatchObject({ state: "disputed", disputedBy: funded.seller.id, disputeReason: "Покупатель не отвечает" });
    await expectRefused(applyDealAction(t.db, funded.buyer.id, funded.deal.id, "deliver", {}, key(), now), Forbidden, "seller_only");
    await expectRefused(applyDealAction(t.db, funded.seller.id, funded.deal.id, "deliver", {}, key(), now), Conflict, "deal_state_changed");
  });

  it("only a moderator who is not a party resolves, only a disputed deal, with a note", async () => {
    const funded = await dealIn("funded");
    await expectRefused(
      applyDealAction(t.db, moderator.id, funded.deal.id, "resolve", { resolution: "release", note: "ok" }, key(), now),
      Conflict,
      "deal_state_changed",
    );
    const { buyer, seller, deal } = await dealIn("disputed");
    await expectRefused(applyDealAction(t.db, buyer.id, deal.id, "resolve", { resolution: "refund", note: "Сам себе" }, key(), now), Forbidden, "own_deal");
    await expectRefused(applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund" }, key(), now), ValidationFailed, "note_required");
    await expectRefused(applyDealAction(t.db, moderator.id, deal.id, "resolve", { note: "x" }, key(), now), ValidationFailed, "resolution_required");
    await expectRefused(applyDealAction(t.db, moderator.id, deal.id, "accept", {}, key(), now), Forbidden, "not_a_party");
    expect((await getDeal(t.db, moderator.id, deal.id)).viewer).toEqual({ role: "moderator", actions: ["resolve"] });
    expect((await getDeal(t.db, seller.id, deal.id)).viewer.actions).toEqual([]);
    const resolved = await applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund", note: "Товар не передан" }, key(), now);
    expect(resolved).toMatchObject({ state: "refunded", resolvedBy: { id: moderator.id, username: moderator.username }, resolutionNote: "Товар не передан" });
    // A moderator who is a party of a deal cannot settle their own dispute.
    const own = await createDeal(
      t.db,
      moderator.id,
      { counterparty: buyer.id, role: "seller", amount: 10_000, description: "x", deadline, feePayer: "buyer" },
      key(),
      now,
    );
    await applyDealAction(t.db, buyer.id, own.id, "accept", {}, key(), now);
    await applyDealAction(t.db, buyer.id, own.id, "fund", {}, key(), now);
    await applyDealAction(t.db, buyer.id, own.id, "dispute", { reason: "Спор" }, key(), now);
    await expectRefused(applyDealAction(t.db, moderator.id, own.id, "resolve", { resolution: "release", note: "Мне" }, key(), now), Forbidden, "own_deal");
  });

  it("a split gives the seller 0,01 ₽ … amount − 0,01 ₽", async () => {
    const { deal } = await dealIn("disputed");
    for (const sellerShare of [0, 100_000, -5]) {
      await expectRefused(
        applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "split", sellerShare, note: "Пополам" }, key(), now),
        ValidationFailed,
        "invalid_seller_share",
      );
    }
    const split = await applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "split", sellerShare: 60_000, note: "Пополам" }, key(), now);
    expect(split).toMatchObject({ state: "split", sellerShare: 60_000 });
  });

  it("funding with too little money is refused with the amount needed, and nothing changes", async () => {
    const { buyer, deal } = await proposed(102_499);
    await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, key(), now);
    const before = await ledgerSnapshot(t.db);
    const refusal = await expectRefused(applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key(), now), InsufficientFunds, "insufficient_funds");
    expect(refusal.message).toBe("Недостаточно средств: для оплаты сделки нужно 1\u00a0025,00\u00a0₽ на балансе");
    expect(await ledgerSnapshot(t.db)).toMatchObject({ transfers: before.transfers, operations: before.operations });
    expect((await getDeal(t.db, buyer.id, deal.id)).state).toBe("accepted");
    expect(await getBalances(t.db, buyer.id)).toMatchObject({ available: 102_499 });
    await topUp(t.db, admin.id, buyer.id, 1, key());
    expect(await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key(), now)).toMatchObject({ state: "funded" });
  });
});

describe(`idempotency and access on ${engine}`, () => {
  it("a retried action replays the same answer and writes one transition; a stale one changes nothing", async () => {
    const { buyer, deal } = await proposed();
    const first = await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, "accept-once", now);
    const again = await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, "accept-once", now);
    expect(again).toEqual(first);
    await expectRefused(applyDealAction(t.db, buyer.id, deal.id, "accept", {}, key(), now), Conflict, "deal_state_changed");
    const rows = await t.db.select().from(dealTransitions).where(eq(dealTransitions.dealId, deal.id));
    expect(rows.map((r) => r.action)).toEqual(["create", "accept"]);
  });

  it("others get deal_not_found; moderators see any deal and the dispute queue", async () => {
    const { buyer, deal } = await dealIn("disputed");
    const stranger = await makeUser(t.db);
    await expectRefused(getDeal(t.db, stranger.id, deal.id), NotFound, "deal_not_found");
    await expectRefused(getDeal(t.db, stranger.id, 999_999), NotFound, "deal_not_found");
    await expectRefused(applyDealAction(t.db, stranger.id, deal.id, "dispute", { reason: "x" }, key(), now), NotFound, "deal_not_found");
    await expectRefused(applyDealAction(t.db, stranger.id, deal.id, "resolve", { resolution: "release", note: "x" }, key(), now), NotFound, "deal_not_found");
    expect((await getDeal(t.db, admin.id, deal.id)).viewer.role).toBe("moderator");
    const queue = await listDisputedDeals(t.db, moderator.id, { page: 1, perPage: 50 });
    expect(queue.items.map((d) => d.id)).toContain(deal.id);
    expect(queue.items.every((d) => d.state === "disputed")).toBe(true);
    await expectRefused(listDisputedDeals(t.db, buyer.id, firstPage), Forbidden, "not_moderator");
    const mine = await listDealsOf(t.db, buyer.id, firstPage);
    expect(mine.items.map((d) => d.id)).toEqual([deal.id]);
    expect((await listDealsOf(t.db, stranger.id, firstPage)).total).toBe(0);
  });
});

describe(`hostile text on ${engine}`, () => {
  const hostile = ["Товар\u0000", "Товар \ud800", "\udc00"];

  it("a description or counterparty with NUL or a lone surrogate is refused as invalid_text; nothing is created", async () => {
    const [me, other] = [await makeUser(t.db), await makeUser(t.db)];
    const base: CreateDealInput = { counterparty: other.username, role: "buyer", amount: 100_000, description: "Товар", deadline, feePayer: "buyer" };
    for (const text of hostile) {
      await expectRefused(createDeal(t.db, me.id, { ...base, description: text }, key(), now), ValidationFailed, "invalid_text");
      await expectRefused(createDeal(t.db, me.id, { ...base, counterparty: `${other.username}${text}` }, key(), now), ValidationFailed, "invalid_text");
    }
    expect((await listDealsOf(t.db, me.id, firstPage)).total).toBe(0);
  });

  it("a dispute reason or a moderator's note with NUL or a lone surrogate is refused as invalid_text; the deal stays as it was", async () => {
    const funded = await dealIn("funded");
    for (const text of hostile) {
      await expectRefused(applyDealAction(t.db, funded.buyer.id, funded.deal.id, "dispute", { reason: text }, key(), now), ValidationFailed, "invalid_text");
    }
    const { deal } = await dealIn("disputed");
    for (const text of hostile) {
      await expectRefused(
        applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "refund", note: text }, key(), now),
        ValidationFailed,
        "invalid_text",
      );
    }
    expect((await getDeal(t.db, funded.buyer.id, funded.deal.id)).state).toBe("funded");
    expect((await getDeal(t.db, moderator.id, deal.id)).state).toBe("disputed");
  });
});
