import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../tests/setup/database";
import { makeUser } from "../../tests/setup/factories";
import { createUserSession, destroyUserSession, getSessionUser, redirectToLogin, safeRedirect } from "./session.server";
import { beginLoginAttempt, finishLoginAttempt, LOGIN_SLOWDOWN_MS } from "./rate-limit.server";
import { createLoginWaitingRoom, LOGIN_BUSY_CODE } from "./login-slowdown";
import { sessions } from "~/db/schema";
import { RateLimited } from "./errors";
import { queriesOf } from "../../tests/setup/query-count";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

const withCookie = (setCookie: string) => new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0]! } });

describe(`sessions on ${engine}`, () => {
  it("keeps a session in the table behind an httpOnly SameSite=Lax cookie", async () => {
    const user = await makeUser(t.db);
    const setCookie = await createUserSession(t.db, user.id, { ip: "127.0.0.1", userAgent: "vitest" });
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect((await getSessionUser(t.db, withCookie(setCookie)))?.id).toBe(user.id);
  });

  it("revokes a session by deleting its row", async () => {
    const user = await makeUser(t.db);
    const setCookie = await createUserSession(t.db, user.id, {});
    await t.db.delete(sessions);
    expect(await getSessionUser(t.db, withCookie(setCookie))).toBeNull();
  });

  it("signs out by deleting the row and clearing the cookie", async () => {
    const user = await makeUser(t.db);
    const setCookie = await createUserSession(t.db, user.id, {});
    const cleared = await destroyUserSession(t.db, withCookie(setCookie));
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await getSessionUser(t.db, withCookie(setCookie))).toBeNull();
  });

  it("looks a page request's session up once for all its loaders, and once more after a form post's action", async () => {
    const user = await makeUser(t.db);
    const cookie = (await createUserSession(t.db, user.id, {})).split(";")[0]!;
    // React Router hands each loader and action its own copy of the request; the load context is one per request.
    const copy = (method: string) => new Request("http://localhost/post/1", { method, headers: { Cookie: cookie } });
    expect((await getSessionUser(t.db, copy("GET")))?.id).toBe(user.id);
    const page = {};
    const pageQueries = await queriesOf(t.db, async () => {
      for (const _loader of ["root", "post"]) expect((await getSessionUser(t.db, copy("GET"), page))?.id).toBe(user.id);
    });
    expect(pageQueries).toBe(1);
    // A form post: the action looks under its own request, and the loaders React Router runs after
    // it (with GET copies) look again, once, seeing what the action changed.
    const form = {};
    const formQueries = await queriesOf(t.db, async () => {
      expect((await getSessionUser(t.db, copy("POST"), form))?.id).toBe(user.id);
      for (const _loader of ["root", "post"]) expect((await getSessionUser(t.db, copy("GET"), form))?.id).toBe(user.id);
    });
    expect(formQueries).toBe(2);
  });

  it("ignores a cookie naming a real session but carrying a forged signature", async () => {
    const user = await makeUser(t.db);
    const genuine = (await createUserSession(t.db, user.id, {})).split(";")[0]!;
    expect((await getSessionUser(t.db, withCookie(genuine)))?.id).toBe(user.id);
    const [name, value] = genuine.split("=") as [string, string];
    const payload = decodeURIComponent(value).split(".")[0]!;
    const forged = new Request("http://localhost/", { headers: { Cookie: `${name}=${encodeURIComponent(`${payload}.forged-signature`)}` } });
    expect(await getSessionUser(t.db, forged)).toBeNull();
  });
});

describe(`login limit on ${engine} (issue 13 item 2: per account and address, per address, never a lock of the account)`, () => {
  it("refuses the 11th attempt on an account from one address, and only from that address", async () => {
    for (let i = 0; i < 10; i++) await beginLoginAttempt(t.db, "user:victim", "10.0.0.1");
    await expect(beginLoginAttempt(t.db, "user:victim", "10.0.0.1")).rejects.toBeInstanceOf(RateLimited);
    await expect(beginLoginAttempt(t.db, "user:victim", "10.9.9.9")).resolves.toBeUndefined();
    await expect(beginLoginAttempt(t.db, "user:someone-else", "10.0.0.1")).resolves.toBeUndefined();
  });

  /** A waiting room whose sleeps end when the test says so, recording each delay: no real time passes. */
  function controlledRoom() {
    const sleeps: { ms: number; end: () => void }[] = [];
    const room = createLoginWaitingRoom({
      delayMs: LOGIN_SLOWDOWN_MS,
      perAccount: 5,
      perProcess: 100,
      sleep: (ms) => new Promise<void>((end) => sleeps.push({ ms, end })),
    });
    return { room, sleeps };
  }

  it("slows attempts on an account tried from many addresses instead of refusing them", async () => {
    const { room, sleeps } = controlledRoom();
    for (let i = 0; i < 10; i++) await beginLoginAttempt(t.db, "user:popular", `10.1.0.${i}`, room);
    expect(sleeps).toHaveLength(0);
    const eleventh = beginLoginAttempt(t.db, "user:popular", "10.1.1.1", room);
    await expect.poll(() => sleeps.length, { timeout: 10_000 }).toBe(1);
    expect(sleeps[0]!.ms).toBe(LOGIN_SLOWDOWN_MS);
    sleeps[0]!.end();
    await expect(eleventh).resolves.toBeUndefined();
  });

  it("lets at most 5 slowed attempts on an account wait; the 6th is refused at once with 429 login_busy and counted nowhere", async () => {
    const { room, sleeps } = controlledRoom();
    for (let i = 0; i < 10; i++) await beginLoginAttempt(t.db, "user:flooded", `10.2.0.${i}`, room);
    const waiting = Array.from({ length: 5 }, (_, i) => beginLoginAttempt(t.db, "user:flooded", `10.2.1.${i}`, room));
    await expect.poll(() => room.waiting("user:flooded"), { timeout: 10_000 }).toBe(5);
    await expect(beginLoginAttempt(t.db, "user:flooded", "10.2.2.1", room)).rejects.toMatchObject({
      status: 429,
      code: LOGIN_BUSY_CODE,
      retryAfterMs: LOGIN_SLOWDOWN_MS,
    });
    // Nothing of the refused attempt was kept: its address may still make all 10 of its own attempts.
    for (const sleep of sleeps.splice(0)) sleep.end();
    await Promise.all(waiting);
    let answered = 0;
    const attempts = Array.from({ length: 10 }, () => beginLoginAttempt(t.db, "user:flooded", "10.2.2.1", room).finally(() => answered++));
    const fromThatAddress = Promise.allSettled(attempts);
    // Every attempt is either waiting or answered before the room opens again: ending the sleeps
    // earlier would let a slow attempt (a busy machine) take a freed place and wait for ever.
    await expect.poll(() => sleeps.length + answered, { timeout: 10_000 }).toBe(10);
    expect(sleeps).toHaveLength(5);
    for (const sleep of sleeps.splice(0)) sleep.end();
    const settled = await fromThatAddress;
    // 5 wait, 5 find the room full — and none is refused for the address: the refused attempt left its 10 untouched.
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(settled.every((r) => r.status === "fulfilled" || (r.reason as { code: string }).code === LOGIN_BUSY_CODE)).toBe(true);
  });

  it("refuses an address after 50 failures across accounts", async () => {
    for (let i = 0; i < 50; i++) await beginLoginAttempt(t.db, `login:user${i}@example.test`, "192.0.2.7");
    await expect(beginLoginAttempt(t.db, "login:fresh@example.test", "192.0.2.7")).rejects.toMatchObject({ status: 429 });
    await expect(beginLoginAttempt(t.db, "login:fresh@example.test", "192.0.2.8")).resolves.toBeUndefined();
  });

  it("lets exactly 10 of a burst of 30 parallel guesses from one address through", async () => {
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => beginLoginAttempt(t.db, "user:burst", "203.0.113.9")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason instanceof RateLimited)).toBe(true);
  });

  it("a successful sign-in clears the failures of its account and address", async () => {
    for (let i = 0; i < 10; i++) await beginLoginAttempt(t.db, "user:forgetful", "198.51.100.1");
    await expect(beginLoginAttempt(t.db, "user:forgetful", "198.51.100.1")).rejects.toBeInstanceOf(RateLimited);
    await finishLoginAttempt(t.db, "user:forgetful", "198.51.100.1");
    await expect(beginLoginAttempt(t.db, "user:forgetful", "198.51.100.1")).resolves.toBeUndefined();
  });
});

describe("redirect targets", () => {
  it("carries the original full path to the login page (docs/product/routes.md#access-and-guards)", () => {
    try {
      redirectToLogin(new Request("http://localhost/profile/posts?page=2"));
      expect.unreachable();
    } catch (response) {
      expect((response as Response).headers.get("Location")).toBe("/auth/login?redirect=%2Fprofile%2Fposts%3Fpage%3D2");
    }
  });

  it.each([
    ["/post/5", "/post/5"],
    ["https://evil.example/", "/"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/post/5?page=2#c3", "/post/5?page=2#c3"],
    [null, "/"],
  ])("safeRedirect(%s) → %s", (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});
