import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../tests/setup/database";
import { makeUser } from "../../tests/setup/factories";
import { createUserSession, destroyUserSession, getSessionUser, redirectToLogin, safeRedirect } from "./session.server";
import { beginLoginAttempt, finishLoginAttempt } from "./rate-limit.server";
import { sessions } from "~/db/schema";
import { RateLimited } from "./errors";

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

describe(`login limit on ${engine} (docs/product/accounts.md#sign-in: 10 failures per 15 minutes)`, () => {
  it("refuses the 11th attempt for an account, from any address", async () => {
    for (let i = 0; i < 10; i++) await beginLoginAttempt(t.db, "user:victim", `10.0.0.${i}`);
    await expect(beginLoginAttempt(t.db, "user:victim", "10.9.9.9")).rejects.toBeInstanceOf(RateLimited);
    await expect(beginLoginAttempt(t.db, "user:someone-else", "10.9.9.8")).resolves.toBeUndefined();
  });

  it("refuses an address after 10 failures across accounts", async () => {
    for (let i = 0; i < 10; i++) await beginLoginAttempt(t.db, `login:user${i}@example.test`, "192.0.2.7");
    await expect(beginLoginAttempt(t.db, "login:fresh@example.test", "192.0.2.7")).rejects.toMatchObject({ status: 429 });
  });

  it("lets exactly 10 of a burst of 30 parallel guesses through", async () => {
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => beginLoginAttempt(t.db, "user:burst", `203.0.113.${i}`)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason instanceof RateLimited)).toBe(true);
  });

  it("a successful sign-in clears the account's failures and gives the address its attempt back", async () => {
    for (let i = 0; i < 9; i++) await beginLoginAttempt(t.db, "user:forgetful", "198.51.100.1");
    await beginLoginAttempt(t.db, "user:forgetful", "198.51.100.1");
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
