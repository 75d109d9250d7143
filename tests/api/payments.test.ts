/**
 * The money API over HTTP (issue 5 "Wallet", "Deposit"; docs/product/routes.md#json-calls): GET
 * /api/profile/payments/balance and the money-moving POSTs — transfer (plain and held), early
 * release of a hold, deposit, withdrawal request and its cancellation, admin top-up. Each POST
 * needs sign-in, the CSRF token of GET /api/auth/csrf in X-CSRF-Token and an Idempotency-Key;
 * a retry with the same key answers the same result and moves nothing, the same key with
 * another body is 409. The authorisation table runs every endpoint as a visitor, a member, the
 * other member and an admin; the validation table sends malformed bodies and expects stable codes.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client";

interface Payer {
  client: Client;
  id: number;
  username: string;
  csrf: string;
}

interface Answer {
  status: number;
  body: { success: boolean; data?: Record<string, unknown> & { id?: number; holdId?: number }; errors?: { code: string; fields?: Record<string, string[]> } };
}

/** A new member, signed in, with the CSRF token a JSON client gets from GET /api/auth/csrf. */
async function payer(): Promise<Payer> {
  const client = new Client();
  const { username } = await client.register();
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
  return { client, id: me.id, username, csrf: await client.csrfToken() };
}

/** The demo admin (admin@shodka.local), signed in. */
async function admin(): Promise<Payer> {
  const client = new Client();
  const signin = await client.signIn("admin@shodka.local", "admin12345");
  expect(signin.status).toBe(200);
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; username: string };
  return { client, id: me.id, username: me.username, csrf: await client.csrfToken() };
}

/** POSTs `body` as JSON with the caller's CSRF token and `key` (a fresh one unless given; null sends none). */
async function post(who: Payer | Client, path: string, body: unknown, key: string | null = randomUUID(), csrf?: string): Promise<Answer> {
  const client = who instanceof Client ? who : who.client;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const token = csrf ?? (who instanceof Client ? undefined : who.csrf);
  if (token !== undefined) headers["X-CSRF-Token"] = token;
  if (key !== null) headers["Idempotency-Key"] = key;
  const response = await client.fetch(path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** The member's available balance in kopecks: the balance after the newest entry of their log. */
async function available(who: Payer): Promise<number> {
  const log = (await (await who.client.fetch("/api/profile/payments/balance")).json()).data as { items: { balanceAfter: number }[] };
  return log.items[0]?.balanceAfter ?? 0;
}

const TRANSFER = "/api/profile/payments/transfer";
const TOPUP = "/api/admin/payments/topup";
const DEPOSIT = "/api/profile/payments/deposit";
const WITHDRAWAL = "/api/profile/payments/deposit/withdrawal";

describe("GET /api/profile/payments/balance", () => {
  it("refuses a visitor with 401 and the stable code", async () => {
    const response = await new Client().fetch("/api/profile/payments/balance");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, errors: { code: "unauthorized" } });
  });

  it("shows a new member an empty first page, clamping the page size to 50", async () => {
    const client = new Client();
    await client.register();
    const response = await client.fetch("/api/profile/payments/balance?perPage=500");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { items: [], page: 1, perPage: 50, total: 0, totalPages: 1 } });
  });

  it("answers other methods with 405", async () => {
    const client = new Client();
    await client.register();
    const response = await client.fetch("/api/profile/payments/balance", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(response.status).toBe(405);
  });
});

describe("money POSTs", () => {
  let boss: Payer;
  let alice: Payer;
  let bob: Payer;

  beforeAll(async () => {
    [boss, alice, bob] = await Promise.all([admin(), payer(), payer()]);
    for (const member of [alice, bob]) {
      const topped = await post(boss, TOPUP, { memberId: member.id, amount: 1_000_000 });
      expect(topped.status, JSON.stringify(topped.body)).toBe(200);
    }
  });

  describe("authorisation table", () => {
    /** Every endpoint with a body that would succeed for its rightful caller. */
    const ENDPOINTS = [
      { name: "transfer", path: () => TRANSFER, body: () => ({ recipient: bob.username, amount: 100 }) },
      { name: "hold release", path: () => "/api/profile/payments/holds/1/release", body: () => ({}) },
      { name: "deposit", path: () => DEPOSIT, body: () => ({ amount: 100 }) },
      { name: "withdrawal request", path: () => WITHDRAWAL, body: () => ({ amount: 100 }) },
      { name: "withdrawal cancel", path: () => `${WITHDRAWAL}/1/cancel`, body: () => ({}) },
      { name: "admin top-up", path: () => TOPUP, body: () => ({ memberId: alice.id, amount: 100 }) },
    ];

    it.each(ENDPOINTS)("$name: a visitor gets 401 unauthorized, even with a CSRF token and a key", async ({ path, body }) => {
      const visitor = new Client();
      const csrf = await visitor.csrfToken();
      const answer = await post(visitor, path(), body(), randomUUID(), csrf);
      expect(answer).toEqual({ status: 401, body: { success: false, errors: { code: "unauthorized", message: expect.any(String) } } });
    });

    it.each(ENDPOINTS)("$name: a signed-in caller without the CSRF header gets 403 csrf_invalid", async ({ path, body }) => {
      const answer = await post((path() === TOPUP ? boss : alice).client, path(), body());
      expect(answer.status).toBe(403);
      expect(answer.body.errors?.code).toBe("csrf_invalid");
    });

    it.each(ENDPOINTS)("$name: a member without an Idempotency-Key gets 400 invalid_idempotency_key", async ({ path, body }) => {
      for (const key of [null, "", "has space", "x".repeat(201), "tab\tinside"]) {
        const answer = await post(path() === TOPUP ? boss : alice, path(), body(), key);
        expect(answer.status, `key ${JSON.stringify(key)}`).toBe(400);
        expect(answer.body.errors?.code).toBe("invalid_idempotency_key");
      }
    });

    it.each(ENDPOINTS)("$name: GET answers 405", async ({ path }) => {
      const response = await alice.client.fetch(path());
      // GET /api/profile/payments/deposit is the deposit log: a read, not a 405.
      expect(response.status).toBe(path() === DEPOSIT ? 200 : 405);
    });

    it("top-up: a member gets 403 not_admin and nothing is credited; the admin credits the member", async () => {
      const before = await available(bob);
      const refused = await post(alice, TOPUP, { memberId: bob.id, amount: 5_000 });
      expect(refused.status).toBe(403);
      expect(refused.body.errors?.code).toBe("not_admin");
      expect(await available(bob)).toBe(before);
      const done = await post(boss, TOPUP, { memberId: bob.id, amount: 5_000 });
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({ memberId: bob.id, amount: 5_000, balanceAfter: before + 5_000 });
      expect(await available(bob)).toBe(before + 5_000);
    });

    it("hold release: only the sender may release; the recipient and others get 404 hold_not_found", async () => {
      const held = await post(alice, TRANSFER, { recipient: bob.username, amount: 700, holdHours: 24 });
      expect(held.status).toBe(200);
      const holdId = held.body.data!.holdId as number;
      expect(holdId).toBeGreaterThan(0);
      const release = `/api/profile/payments/holds/${holdId}/release`;
      expect((await post(bob, release, {})).body.errors?.code).toBe("hold_not_found");
      expect((await post(boss, release, {})).body.errors?.code).toBe("hold_not_found");
      const bobBefore = await available(bob);
      const key = randomUUID();
      const done = await post(alice, release, {}, key);
      expect(done).toEqual({ status: 200, body: { success: true, data: { holdId, released: true, transferId: expect.any(Number), amount: 700 } } });
      expect(await available(bob)).toBe(bobBefore + 700);
      expect(await post(alice, release, {}, key)).toEqual(done);
      const again = await post(alice, release, {});
      expect(again.status).toBe(409);
      expect(again.body.errors?.code).toBe("hold_already_released");
      expect(await available(bob)).toBe(bobBefore + 700);
    });

    it("withdrawal cancel: another member gets 404 withdrawal_not_found; the owner cancels once", async () => {
      const deposited = await post(bob, DEPOSIT, { amount: 3_000 });
      expect(deposited.status, JSON.stringify(deposited.body)).toBe(200);
      const requested = await post(bob, WITHDRAWAL, { amount: 1_000 });
      expect(requested.status).toBe(200);
      const id = requested.body.data!.id as number;
      const second = await post(bob, WITHDRAWAL, { amount: 500 });
      expect(second.status).toBe(409);
      expect(second.body.errors?.code).toBe("withdrawal_pending");
      const cancel = `${WITHDRAWAL}/${id}/cancel`;
      expect((await post(alice, cancel, {})).body.errors?.code).toBe("withdrawal_not_found");
      const key = randomUUID();
      const done = await post(bob, cancel, {}, key);
      expect(done).toEqual({ status: 200, body: { success: true, data: { id, cancelled: true } } });
      expect(await post(bob, cancel, {}, key)).toEqual(done);
      const closed = await post(bob, cancel, {});
      expect(closed.status).toBe(409);
      expect(closed.body.errors?.code).toBe("withdrawal_closed");
    });
  });

  describe("validation table", () => {
    const CASES: { name: string; path: string; body: unknown; status: number; code: string }[] = [
      { name: "transfer: body not JSON", path: TRANSFER, body: "amount=100", status: 400, code: "invalid_body" },
      { name: "transfer: body an array", path: TRANSFER, body: "[1]", status: 400, code: "invalid_body" },
      { name: "transfer: amount missing", path: TRANSFER, body: { recipient: "x" }, status: 400, code: "invalid_amount" },
      { name: "transfer: amount zero", path: TRANSFER, body: { recipient: "x", amount: 0 }, status: 400, code: "invalid_amount" },
      { name: "transfer: amount negative", path: TRANSFER, body: { recipient: "x", amount: -100 }, status: 400, code: "invalid_amount" },
      { name: "transfer: amount fractional", path: TRANSFER, body: { recipient: "x", amount: 10.5 }, status: 400, code: "invalid_amount" },
      { name: "transfer: amount as a string", path: TRANSFER, body: { recipient: "x", amount: "100" }, status: 400, code: "invalid_amount" },
      { name: "transfer: amount above 10 000 000 ₽", path: TRANSFER, body: { recipient: "x", amount: 1_000_000_001 }, status: 400, code: "invalid_amount" },
      { name: "transfer: recipient missing", path: TRANSFER, body: { amount: 100 }, status: 400, code: "invalid_recipient" },
      { name: "transfer: recipient blank", path: TRANSFER, body: { recipient: "  ", amount: 100 }, status: 400, code: "invalid_recipient" },
      { name: "transfer: hold of 0 hours", path: TRANSFER, body: { recipient: "x", amount: 100, holdHours: 0 }, status: 400, code: "invalid_hold" },
      { name: "transfer: hold above 720 hours", path: TRANSFER, body: { recipient: "x", amount: 100, holdHours: 721 }, status: 400, code: "invalid_hold" },
      {
        name: "transfer: memo above 500 characters",
        path: TRANSFER,
        body: { recipient: "x", amount: 100, memo: "я".repeat(501) },
        status: 400,
        code: "invalid_memo",
      },
      { name: "transfer: NUL in the memo", path: TRANSFER, body: { recipient: "x", amount: 100, memo: "за\u0000аккаунт" }, status: 400, code: "invalid_text" },
      {
        name: "transfer: a lone surrogate in the memo",
        path: TRANSFER,
        body: { recipient: "x", amount: 100, memo: "за аккаунт \ud800" },
        status: 400,
        code: "invalid_text",
      },
      { name: "transfer: NUL in the recipient", path: TRANSFER, body: { recipient: "bob\u0000", amount: 100 }, status: 400, code: "invalid_text" },
      { name: "transfer: a lone surrogate in the recipient", path: TRANSFER, body: { recipient: "\udc00bob", amount: 100 }, status: 400, code: "invalid_text" },
      {
        name: "transfer: unknown recipient",
        path: TRANSFER,
        body: { recipient: "nobody_like_this_here", amount: 100 },
        status: 404,
        code: "recipient_not_found",
      },
      { name: "hold release: not an id", path: "/api/profile/payments/holds/abc/release", body: {}, status: 404, code: "hold_not_found" },
      { name: "hold release: unknown hold", path: "/api/profile/payments/holds/2147483647/release", body: {}, status: 404, code: "hold_not_found" },
      { name: "deposit: amount zero", path: DEPOSIT, body: { amount: 0 }, status: 400, code: "invalid_amount" },
      { name: "withdrawal: amount fractional", path: WITHDRAWAL, body: { amount: 0.5 }, status: 400, code: "invalid_amount" },
      { name: "withdrawal cancel: unknown", path: `${WITHDRAWAL}/2147483647/cancel`, body: {}, status: 404, code: "withdrawal_not_found" },
      { name: "top-up: memberId missing", path: TOPUP, body: { amount: 100 }, status: 400, code: "invalid_member" },
      { name: "top-up: memberId a string", path: TOPUP, body: { memberId: "abc", amount: 100 }, status: 400, code: "invalid_member" },
      { name: "top-up: unknown member", path: TOPUP, body: { memberId: 2_147_483_647, amount: 100 }, status: 404, code: "member_not_found" },
      { name: "top-up: amount zero", path: TOPUP, body: { memberId: 1, amount: 0 }, status: 400, code: "invalid_amount" },
    ];

    it.each(CASES)("$name → $status $code, nothing moves", async ({ path, body, status, code }) => {
      const caller = path === TOPUP ? boss : alice;
      const before = await available(alice);
      const answer = await post(caller, path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body).toMatchObject({ success: false, errors: { code } });
      expect(await available(alice)).toBe(before);
    });

    it("refuses a transfer to oneself (400 transfer_to_self) and one above the balance (422 insufficient_funds)", async () => {
      const before = await available(alice);
      const self = await post(alice, TRANSFER, { recipient: alice.username, amount: 100 });
      expect(self.status).toBe(400);
      expect(self.body.errors?.code).toBe("transfer_to_self");
      const short = await post(alice, TRANSFER, { recipient: bob.username, amount: before + 1 });
      expect(short.status).toBe(422);
      expect(short.body.errors?.code).toBe("insufficient_funds");
      const deposit = await post(alice, DEPOSIT, { amount: before + 1 });
      expect(deposit.status).toBe(422);
      expect(deposit.body.errors?.code).toBe("insufficient_funds");
      expect(await available(alice)).toBe(before);
    });
  });

  describe("idempotency", () => {
    it("answers a retried transfer with the same result and moves the money once, also for concurrent retries", async () => {
      const [aliceBefore, bobBefore] = [await available(alice), await available(bob)];
      const key = randomUUID();
      const body = { recipient: `@${bob.username.toUpperCase()}`, amount: 1_234, memo: "за ключ" };
      const answers = await Promise.all([1, 2, 3].map(() => post(alice, TRANSFER, body, key)));
      const first = answers[0]!;
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        amount: 1_234,
        recipient: { id: bob.id, username: bob.username },
        holdId: null,
        balanceAfter: aliceBefore - 1_234,
      });
      for (const answer of answers) expect(answer).toEqual(first);
      expect(await post(alice, TRANSFER, body, key)).toEqual(first);
      expect(await available(alice)).toBe(aliceBefore - 1_234);
      expect(await available(bob)).toBe(bobBefore + 1_234);
    });

    it("refuses the same key with another body (409 idempotency_key_reused) and moves nothing more", async () => {
      const key = randomUUID();
      const first = await post(alice, TRANSFER, { recipient: bob.username, amount: 200 }, key);
      expect(first.status).toBe(200);
      const before = await available(alice);
      const reused = await post(alice, TRANSFER, { recipient: bob.username, amount: 300 }, key);
      expect(reused.status).toBe(409);
      expect(reused.body.errors?.code).toBe("idempotency_key_reused");
      const otherKind = await post(alice, DEPOSIT, { amount: 200 }, key);
      expect(otherKind.status).toBe(409);
      expect(otherKind.body.errors?.code).toBe("idempotency_key_reused");
      expect(await available(alice)).toBe(before);
    });

    it("replays a top-up and a deposit to a retry without crediting twice", async () => {
      const before = await available(alice);
      const topKey = randomUUID();
      const topped = await post(boss, TOPUP, { memberId: alice.id, amount: 9_900 }, topKey);
      expect(topped.status).toBe(200);
      expect(await post(boss, TOPUP, { memberId: alice.id, amount: 9_900 }, topKey)).toEqual(topped);
      const depositKey = randomUUID();
      const deposited = await post(alice, DEPOSIT, { amount: 900 }, depositKey);
      expect(deposited.status).toBe(200);
      expect(deposited.body.data).toMatchObject({ amount: 900, available: before + 9_900 - 900 });
      expect(await post(alice, DEPOSIT, { amount: 900 }, depositKey)).toEqual(deposited);
      expect(await available(alice)).toBe(before + 9_900 - 900);
    });

    it("lets a refused operation be retried under its key once it can succeed", async () => {
      const carol = await payer();
      const key = randomUUID();
      const refused = await post(carol, TRANSFER, { recipient: bob.username, amount: 500 }, key);
      expect(refused.status).toBe(422);
      expect((await post(boss, TOPUP, { memberId: carol.id, amount: 500 })).status).toBe(200);
      const done = await post(carol, TRANSFER, { recipient: bob.username, amount: 500 }, key);
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({ amount: 500, balanceAfter: 0 });
      expect(await available(carol)).toBe(0);
    });
  });
});
