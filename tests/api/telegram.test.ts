/**
 * POST /api/auth/telegram and `Authorization: tma <initData>` (issue 6) against a server of
 * its own started with a test bot token; the shared server (no token) shows the switched-off case.
 */
import { sign } from "@telegram-apps/init-data-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";
import { Client } from "./client";

const BOT_TOKEN = "7000001:api-test-token";
let server: RunningServer;
let nextId = 8_000_000 + Math.floor(Math.random() * 1_000_000);

beforeAll(async () => {
  server = await startServer({ TELEGRAM_BOT_TOKEN: BOT_TOKEN });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

function telegramUser(username?: string) {
  nextId += 1;
  return { id: nextId, first_name: "Тест", ...(username ? { username } : {}) };
}

function initDataFor(user: { id: number; first_name: string; username?: string }, authDate = new Date(), token = BOT_TOKEN) {
  return sign({ user, query_id: `Q${user.id}` }, token, authDate);
}

function postInitData(client: Client, initData: unknown) {
  return client.fetch("/api/auth/telegram", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ initData }) });
}

async function me(client: Client, headers: Record<string, string> = {}) {
  const response = await client.fetch("/api/auth/me", { headers });
  return { status: response.status, body: (await response.json()) as { ok: boolean; user: { id: number; name: string; email: string } | null } };
}

describe("POST /api/auth/telegram", () => {
  it("signs a new Telegram user in as a new member and a second time as the same member", async () => {
    const user = telegramUser(`tg_api_${nextId}`);
    const first = new Client(server.baseUrl);
    const response = await postInitData(first, initDataFor(user));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.getSetCookie().join()).toMatch(/__session=.*HttpOnly/i);
    const signedIn = await me(first);
    expect(signedIn.body).toMatchObject({ ok: true, user: { name: user.username, email: `tg${user.id}@telegram.invalid` } });

    // A replay of the same fresh initData (documented as accepted) signs in the same member, never another.
    const second = new Client(server.baseUrl);
    expect(await (await postInitData(second, initDataFor(user))).json()).toEqual({ ok: true });
    expect((await me(second)).body.user?.id).toBe(signedIn.body.user!.id);
  });

  it("refuses tampered, stale, foreign-signed and missing initData without a session", async () => {
    const client = new Client(server.baseUrl);
    const user = telegramUser();
    const valid = initDataFor(user);
    const cases: [unknown, number, string][] = [
      [valid.replace(/hash=([0-9a-f])/, (_m, d: string) => `hash=${d === "0" ? "1" : "0"}`), 401, "init_data_invalid"],
      [valid.replace(encodeURIComponent(`"id":${user.id}`), encodeURIComponent(`"id":${user.id + 1}`)), 401, "init_data_invalid"],
      [initDataFor(user, new Date(Date.now() - 25 * 60 * 60 * 1000)), 401, "init_data_stale"],
      [initDataFor(user, new Date(), "1:another-bot"), 401, "init_data_invalid"],
      [undefined, 400, "init_data_missing"],
      ["", 400, "init_data_missing"],
    ];
    for (const [initData, status, code] of cases) {
      const response = await postInitData(client, initData);
      expect(response.status, code).toBe(status);
      expect(await response.json()).toMatchObject({ ok: false, errors: { code } });
      expect(response.headers.getSetCookie().join()).not.toMatch(/__session=/);
    }
    expect((await me(client)).status).toBe(401);
  });

  it("wants JSON, which a cross-site form cannot send", async () => {
    const client = new Client(server.baseUrl);
    const response = await client.postForm("/api/auth/telegram", { initData: initDataFor(telegramUser()) });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ ok: false, errors: { code: "json_required" } });
    expect((await me(client)).status).toBe(401);
  });

  it("answers 429 after 10 refused payloads from one IP in 15 minutes, as login does", async () => {
    const client = new Client(server.baseUrl, "198.51.100.201");
    for (let attempt = 0; attempt < 10; attempt++) expect((await postInitData(client, "hash=00&auth_date=1")).status).toBe(401);
    const limited = await postInitData(client, initDataFor(telegramUser()));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ ok: false, errors: { code: "rate_limited" } });
    expect((await me(client)).status).toBe(401);
  });

  it("answers {ok:false} while TELEGRAM_BOT_TOKEN is not set (the shared test server has none)", async () => {
    const client = new Client();
    const response = await postInitData(client, initDataFor(telegramUser()));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ ok: false, errors: { code: "telegram_not_configured" } });
  });
});

describe("Authorization: tma <initData>", () => {
  it("authenticates the linked member without a cookie, and not with tampered data", async () => {
    const user = telegramUser();
    const signedIn = new Client(server.baseUrl);
    expect(await (await postInitData(signedIn, initDataFor(user))).json()).toEqual({ ok: true });
    const member = (await me(signedIn)).body.user!;

    const cookieless = new Client(server.baseUrl);
    const initData = initDataFor(user);
    const viaHeader = await me(cookieless, { Authorization: `tma ${initData}` });
    expect(viaHeader).toMatchObject({ status: 200, body: { ok: true, user: { id: member.id, name: member.name } } });
    const balance = await cookieless.fetch("/api/profile/payments/balance", { headers: { Authorization: `tma ${initData}` } });
    expect(balance.status).toBe(200);
    const unread = await cookieless.fetch("/api/profile/notifications/unread", { headers: { Authorization: `tma ${initData}` } });
    expect(unread.status).toBe(200);
    expect(await unread.json()).toMatchObject({ success: true, data: { count: expect.any(Number) } });

    const tampered = initData.replace(/hash=([0-9a-f])/, (_m, d: string) => `hash=${d === "0" ? "1" : "0"}`);
    expect(await me(cookieless, { Authorization: `tma ${tampered}` })).toEqual({ status: 401, body: { ok: false, user: null } });
    const stale = initDataFor(user, new Date(Date.now() - 25 * 60 * 60 * 1000));
    expect((await me(cookieless, { Authorization: `tma ${stale}` })).status).toBe(401);
  });

  it("does not create a member for a Telegram user nobody linked", async () => {
    const response = await me(new Client(server.baseUrl), { Authorization: `tma ${initDataFor(telegramUser())}` });
    expect(response.status).toBe(401);
  });
});
