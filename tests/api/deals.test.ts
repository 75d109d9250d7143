/**
 * /api/guarantor over HTTP (issue 5 "API authorisation tables"; docs/product/deals.md#pages-and-calls):
 * who may read and act on a deal — signed out (401), another member (404 deal_not_found), a
 * party (allowed per state), a moderator (sees any deal, resolves only disputed ones) — plus
 * idempotent retries, CSRF and the money the parties see move.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { DealDetailDto, DealDto } from "~/domain/deals/types";
import { Client, csrfFromHtml, decodeHtml } from "./client";

interface Caller {
  client: Client;
  id: number;
  username: string;
  csrf: string;
}
interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; errors?: { code: string; message: string } };
}

async function signedIn(client: Client): Promise<Caller> {
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; name: string };
  return { client, id: me.id, username: me.name, csrf: await client.csrfToken() };
}

async function member(): Promise<Caller> {
  const client = new Client();
  await client.register();
  return signedIn(client);
}

async function demo(email: string, password: string): Promise<Caller> {
  const client = new Client();
  expect((await client.signIn(email, password)).status).toBe(200);
  return signedIn(client);
}

async function post(who: Caller | Client, path: string, body: unknown, key: string | null = randomUUID(), csrf?: string): Promise<Answer> {
  const client = who instanceof Client ? who : who.client;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const token = csrf ?? (who instanceof Client ? undefined : who.csrf);
  if (token !== undefined) headers["X-CSRF-Token"] = token;
  if (key !== null) headers["Idempotency-Key"] = key;
  const response = await client.fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

async function get(who: Caller | Client, path: string): Promise<Answer> {
  const response = await (who instanceof Client ? who : who.client).fetch(path);
  return { status: response.status, body: await response.json() };
}

async function available(who: Caller): Promise<number> {
  const log = (await get(who, "/api/profile/payments/balance")).body.data as { items: { balanceAfter: number }[] };
  return log.items[0]?.balanceAfter ?? 0;
}

const DEALS = "/api/guarantor/deals";
const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

let admin: Caller;
let moderator: Caller;

beforeAll(async () => {
  admin = await demo("admin@shodka.local", "admin12345");
  moderator = await demo("moderator@shodka.local", "moder12345");
});

async function topUp(who: Caller, amount: number) {
  const answer = await post(admin, "/api/admin/payments/topup", { memberId: who.id, amount });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** A buyer (topped up with 5 000 ₽), a seller and a 1 000 ₽ deal the seller proposed, driven to `state`. */
async function dealIn(state: "created" | "accepted" | "funded" | "delivered" | "disputed") {
  const [buyer, seller] = [await member(), await member()];
  await topUp(buyer, 500_000);
  const created = await post(seller, DEALS, {
    counterparty: buyer.username,
    role: "seller",
    amount: 100_000,
    description: "Аккаунт",
    deadline,
    feePayer: "buyer",
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const deal = created.body.data as DealDto;
  const act = async (who: Caller, action: string, extra: object = {}) => {
    const answer = await post(who, `${DEALS}/${deal.id}/actions`, { action, ...extra });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  const order = ["created", "accepted", "funded", "delivered", "disputed"];
  const reach = order.indexOf(state);
  if (reach >= 1) await act(buyer, "accept");
  if (reach >= 2) await act(buyer, "fund");
  if (reach >= 3 && state !== "disputed") await act(seller, "deliver");
  if (state === "disputed") await act(buyer, "dispute", { reason: "Продавец пропал" });
  return { buyer, seller, deal };
}

describe("GET /api/guarantor/deals and /deals/{id}", () => {
  it("answers a visitor 401, another member 404, the parties and a moderator the deal", async () => {
    const { buyer, seller, deal } = await dealIn("created");
    const stranger = await member();
    expect((await get(new Client(), DEALS)).status).toBe(401);
    const table: [string, Caller | Client, number, string | null][] = [
      ["visitor", new Client(), 401, "unauthorized"],
      ["other member", stranger, 404, "deal_not_found"],
      ["buyer", buyer, 200, null],
      ["seller", seller, 200, null],
      ["moderator", moderator, 200, null],
    ];
    for (const [who, caller, status, code] of table) {
      const answer = await get(caller, `${DEALS}/${deal.id}`);
      expect(answer.status, who).toBe(status);
      if (code) expect(answer.body.errors?.code, who).toBe(code);
    }
    const asBuyer = (await get(buyer, `${DEALS}/${deal.id}`)).body.data as DealDetailDto;
    expect(asBuyer).toMatchObject({ state: "created", amount: 100_000, fee: 5_000, buyerFee: 5_000, viewer: { role: "buyer", actions: ["accept", "cancel"] } });
    expect(((await get(moderator, `${DEALS}/${deal.id}`)).body.data as DealDetailDto).viewer).toEqual({ role: "moderator", actions: [] });
    expect((await get(stranger, `${DEALS}/abc`)).status).toBe(404);
    const mine = (await get(seller, `${DEALS}?perPage=5`)).body.data as { items: DealDto[]; perPage: number };
    expect(mine.items.map((d) => d.id)).toEqual([deal.id]);
    expect(mine.perPage).toBe(5);
    expect(((await get(stranger, DEALS)).body.data as { total: number }).total).toBe(0);
  });
});

describe("POST /api/guarantor/deals", () => {
  it("creates a deal once per Idempotency-Key; refuses bad input, a missing key and a missing CSRF token", async () => {
    const [me, other] = [await member(), await member()];
    const body = { counterparty: other.username, role: "buyer", amount: 20_000, description: "Ключ", deadline, feePayer: "split" };
    const key = randomUUID();
    const first = await post(me, DEALS, body, key);
    const again = await post(me, DEALS, body, key);
    expect(first.status).toBe(200);
    expect((again.body.data as DealDto).id).toBe((first.body.data as DealDto).id);
    expect(first.body.data).toMatchObject({ buyer: { id: me.id }, seller: { id: other.id }, fee: 5_000, buyerFee: 2_500, sellerFee: 2_500, state: "created" });
    expect((await post(me, DEALS, { ...body, amount: 25_000 }, key)).body.errors?.code).toBe("idempotency_key_reused");
    const refusals: [unknown, number, string][] = [
      [{ ...body, amount: 9_999 }, 400, "invalid_amount"],
      [{ ...body, counterparty: me.username }, 400, "deal_with_self"],
      [{ ...body, counterparty: "no_such_member_here" }, 404, "counterparty_not_found"],
      [{ ...body, deadline: "2020-01-01" }, 400, "invalid_deadline"],
      [{ ...body, feePayer: "nobody" }, 400, "invalid_input"],
    ];
    for (const [input, status, code] of refusals) {
      const answer = await post(me, DEALS, input);
      expect([answer.status, answer.body.errors?.code]).toEqual([status, code]);
    }
    expect((await post(me, DEALS, body, null)).body.errors?.code).toBe("invalid_idempotency_key");
    expect((await post(me, DEALS, body, randomUUID(), "forged")).status).toBe(403);
    expect((await post(new Client(), DEALS, body)).status).toBe(401);
    expect(((await get(me, DEALS)).body.data as { total: number }).total).toBe(1);
  });
});

describe("POST /api/guarantor/deals/{id}/actions", () => {
  // Each state, caller and action is a test of its own: a row sets up its own deal over HTTP,
  // which beside the journeys can take seconds (npm test, decision 0031).
  describe("lets each caller do only what their role allows in each state", () => {
    let stranger: Caller;
    beforeAll(async () => {
      stranger = await member();
    });
    type Who = "buyer" | "seller" | "stranger" | "moderator" | "visitor";
    const table: [state: Parameters<typeof dealIn>[0], who: Who, action: string, extra: object, status: number, code: string | null][] = [
      ["created", "visitor", "accept", {}, 401, "unauthorized"],
      ["created", "stranger", "accept", {}, 404, "deal_not_found"],
      ["created", "seller", "accept", {}, 403, "creator_cannot_accept"],
      ["created", "moderator", "accept", {}, 403, "not_a_party"],
      ["created", "buyer", "fund", {}, 409, "deal_state_changed"],
      ["created", "seller", "cancel", {}, 200, null],
      ["accepted", "seller", "fund", {}, 403, "buyer_only"],
      ["accepted", "buyer", "dispute", { reason: "x" }, 409, "deal_state_changed"],
      ["funded", "buyer", "cancel", {}, 409, "deal_state_changed"],
      ["funded", "buyer", "deliver", {}, 403, "seller_only"],
      ["funded", "moderator", "resolve", { resolution: "release", note: "Рано" }, 409, "deal_state_changed"],
      ["funded", "stranger", "dispute", { reason: "x" }, 404, "deal_not_found"],
      ["funded", "seller", "dispute", { reason: "" }, 400, "reason_required"],
      ["delivered", "seller", "confirm", {}, 403, "buyer_only"],
      ["delivered", "buyer", "agree_cancel", {}, 409, "no_cancel_request"],
      ["delivered", "buyer", "confirm", {}, 200, null],
      ["disputed", "buyer", "resolve", { resolution: "refund", note: "Себе" }, 403, "own_deal"],
      ["disputed", "stranger", "resolve", { resolution: "refund", note: "x" }, 404, "deal_not_found"],
      ["disputed", "moderator", "resolve", { resolution: "split", sellerShare: 100_000, note: "x" }, 400, "invalid_seller_share"],
      ["disputed", "moderator", "resolve", { resolution: "refund" }, 400, "note_required"],
      ["disputed", "moderator", "resolve", { resolution: "split", sellerShare: 40_000, note: "Пополам" }, 200, null],
    ];
    it.each(table)("%s: %s %s %o → %i %s", async (state, who, action, extra, status, code) => {
      const parties = await dealIn(state);
      const caller = { buyer: parties.buyer, seller: parties.seller, stranger, moderator, visitor: new Client() }[who];
      const answer = await post(caller, `${DEALS}/${parties.deal.id}/actions`, { action, ...extra });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (code) expect(answer.body.errors?.code).toBe(code);
      const after = (await get(parties.buyer, `${DEALS}/${parties.deal.id}`)).body.data as DealDetailDto;
      // A refusal changes nothing.
      if (status !== 200) expect(after.state).toBe(state);
    });
  });

  it("moves the money: funding with too little is 422 and changes nothing; a retried confirm pays the seller once", async () => {
    const { buyer, seller, deal } = await dealIn("accepted");
    expect(await available(buyer)).toBe(500_000);
    expect((await post(buyer, `${DEALS}/${deal.id}/actions`, { action: "fund" })).status).toBe(200);
    // 1 000 ₽ and the buyer's fee of 50 ₽ went to escrow.
    expect(await available(buyer)).toBe(395_000);
    const big = (
      await post(seller, DEALS, { counterparty: buyer.username, role: "seller", amount: 400_000, description: "Дорого", deadline, feePayer: "buyer" })
    ).body.data as DealDto;
    expect((await post(buyer, `${DEALS}/${big.id}/actions`, { action: "accept" })).status).toBe(200);
    const refused = await post(buyer, `${DEALS}/${big.id}/actions`, { action: "fund" });
    expect([refused.status, refused.body.errors?.code]).toEqual([422, "insufficient_funds"]);
    expect(await available(buyer)).toBe(395_000);
    expect(((await get(buyer, `${DEALS}/${big.id}`)).body.data as DealDto).state).toBe("accepted");

    expect((await post(seller, `${DEALS}/${deal.id}/actions`, { action: "deliver" })).status).toBe(200);
    const key = randomUUID();
    const confirms = await Promise.all([1, 2, 3].map(() => post(buyer, `${DEALS}/${deal.id}/actions`, { action: "confirm" }, key)));
    expect(confirms.map((c) => c.status)).toEqual([200, 200, 200]);
    expect(await available(seller)).toBe(100_000);
    const stale = await post(buyer, `${DEALS}/${deal.id}/actions`, { action: "confirm" });
    expect([stale.status, stale.body.errors?.code]).toEqual([409, "deal_state_changed"]);
    expect(await available(seller)).toBe(100_000);
  });

  it("refuses a missing Idempotency-Key, a forged CSRF token and GET", async () => {
    const { buyer, deal } = await dealIn("created");
    expect((await post(buyer, `${DEALS}/${deal.id}/actions`, { action: "accept" }, null)).body.errors?.code).toBe("invalid_idempotency_key");
    expect((await post(buyer, `${DEALS}/${deal.id}/actions`, { action: "accept" }, randomUUID(), "forged")).body.errors?.code).toBe("csrf_invalid");
    expect((await post(buyer, `${DEALS}/${deal.id}/actions`, { action: "explode" })).body.errors?.code).toBe("invalid_input");
    expect((await get(buyer, `${DEALS}/${deal.id}/actions`)).status).toBe(405);
    expect(((await get(buyer, `${DEALS}/${deal.id}`)).body.data as DealDto).state).toBe("created");
  });
});

describe("hostile text", () => {
  const HOSTILE = ["\u0000", "\ud800", "\udfff"];

  it("POST /api/guarantor/deals: NUL or a lone surrogate in the description or counterparty is 400 invalid_text, never a 500", async () => {
    const [me, other] = [await member(), await member()];
    const body = { counterparty: other.username, role: "buyer", amount: 20_000, description: "Ключ", deadline, feePayer: "split" };
    for (const text of HOSTILE) {
      for (const input of [
        { ...body, description: `Ключ ${text}` },
        { ...body, counterparty: `${other.username}${text}` },
      ]) {
        const answer = await post(me, DEALS, input);
        expect([answer.status, answer.body.errors?.code], JSON.stringify(input)).toEqual([400, "invalid_text"]);
      }
    }
    expect(((await get(me, DEALS)).body.data as { total: number }).total).toBe(0);
  });

  it("POST /api/guarantor/deals/{id}/actions: such a dispute reason or resolution note is 400 invalid_text; the deal stays", async () => {
    const funded = await dealIn("funded");
    const disputed = await dealIn("disputed");
    for (const text of HOSTILE) {
      const dispute = await post(funded.buyer, `${DEALS}/${funded.deal.id}/actions`, { action: "dispute", reason: `Обман ${text}` });
      expect([dispute.status, dispute.body.errors?.code]).toEqual([400, "invalid_text"]);
      const resolve = await post(moderator, `${DEALS}/${disputed.deal.id}/actions`, { action: "resolve", resolution: "refund", note: `Возврат ${text}` });
      expect([resolve.status, resolve.body.errors?.code]).toEqual([400, "invalid_text"]);
    }
    expect(((await get(funded.buyer, `${DEALS}/${funded.deal.id}`)).body.data as DealDto).state).toBe("funded");
    expect(((await get(moderator, `${DEALS}/${disputed.deal.id}`)).body.data as DealDto).state).toBe("disputed");
  });
});

describe("the guarantor pages' forms (no JavaScript)", () => {
  it("a double submit of «Новая сделка» with the loader's key creates one deal; others get the 404 page", async () => {
    const [me, other, stranger] = [await member(), await member(), await member()];
    const html = await (await me.client.fetch("/services/guarantor")).text();
    const key = decodeHtml(/name="key" value="([^"]+)"/.exec(html)![1]!);
    const fields = {
      csrf: csrfFromHtml(html),
      key,
      counterparty: other.username,
      role: "seller",
      amount: "1 234,50",
      description: "Скин",
      deadline,
      feePayer: "split",
    };
    const [first, second] = [await me.client.postForm("/services/guarantor", fields), await me.client.postForm("/services/guarantor", fields)];
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    const page = first.headers.get("Location")!;
    const deals = (await get(me, DEALS)).body.data as { items: DealDto[] };
    expect(deals.items).toHaveLength(1);
    expect(deals.items[0]).toMatchObject({ amount: 123_450, seller: { id: me.id }, buyer: { id: other.id } });
    expect((await stranger.client.fetch(page)).status).toBe(404);
    expect((await other.client.fetch(page)).status).toBe(200);
    expect((await new Client().fetch(page)).status).toBe(302);
  });
});
