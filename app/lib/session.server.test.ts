import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../tests/setup/database";
import { makeUser } from "../../tests/setup/factories";
import { createUserSession, destroyUserSession, getSessionUser, redirectToLogin, safeRedirect } from "./session.server";
import { checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from "./rate-limit.server";
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

  it("ignores a forged cookie", async () => {
    const forged = new Request("http://localhost/", { headers: { Cookie: "__session=eyJzZXNzaW9uSWQiOiJ4In0%3D.forged" } });
    expect(await getSessionUser(t.db, forged)).toBeNull();
  });
});

describe(`login limit on ${engine} (PRODUCT.md Limits: 10 failures per 15 minutes)`, () => {
  it("refuses the 11th attempt for an account after 10 failures, from any address", async () => {
    for (let i = 0; i < 10; i++) {
      await checkLoginAllowed(t.db, "victim@example.test", `10.0.0.${i}`);
      await recordLoginFailure(t.db, "victim@example.test", `10.0.0.${i}`);
    }
    await expect(checkLoginAllowed(t.db, "Victim@Example.test", "10.9.9.9")).rejects.toBeInstanceOf(RateLimited);
    await expect(checkLoginAllowed(t.db, "someone-else@example.test", "10.9.9.9")).resolves.toBeUndefined();
  });

  it("refuses an address after 10 failures across accounts", async () => {
    for (let i = 0; i < 10; i++) await recordLoginFailure(t.db, `user${i}@example.test`, "192.0.2.7");
    await expect(checkLoginAllowed(t.db, "fresh@example.test", "192.0.2.7")).rejects.toMatchObject({ status: 429 });
  });

  it("clears an account's failures after a successful sign-in", async () => {
    for (let i = 0; i < 9; i++) await recordLoginFailure(t.db, "forgetful@example.test", `198.51.100.${i}`);
    await recordLoginSuccess(t.db, "forgetful@example.test");
    await recordLoginFailure(t.db, "forgetful@example.test", "198.51.100.200");
    await expect(checkLoginAllowed(t.db, "forgetful@example.test", "198.51.100.201")).resolves.toBeUndefined();
  });
});

describe("redirect targets", () => {
  it("carries the original full path to the login page (SPEC.md 5)", () => {
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
    [null, "/"],
  ])("safeRedirect(%s) → %s", (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});
