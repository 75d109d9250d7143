import { describe, expect, it } from "vitest";
import { Client } from "./client";

describe("Auth.js-style calls (docs/product/accounts.md#authjs-style-calls)", () => {
  it("csrf answers a token and sets the csrf cookie", async () => {
    const client = new Client();
    const response = await client.fetch("/api/auth/csrf");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { csrfToken: string };
    expect(body.csrfToken.length).toBeGreaterThan(20);
    expect(response.headers.getSetCookie().join()).toMatch(/csrf=.*HttpOnly.*SameSite=Lax/i);
  });

  it("providers lists credentials", async () => {
    const body = await (await new Client().fetch("/api/auth/providers")).json();
    expect(body.credentials).toMatchObject({ id: "credentials", type: "credentials" });
  });

  it("session is an empty object when signed out and the user when signed in", async () => {
    const client = new Client();
    expect(await (await client.fetch("/api/auth/session?callbackUrl=/")).json()).toEqual({});
    const { username, email } = await client.register();
    const session = await (await client.fetch("/api/auth/session")).json();
    expect(session.user).toMatchObject({ name: username, email });
    expect(Date.parse(session.expires)).toBeGreaterThan(Date.now());
  });

  it("me answers {ok, user} with the current user of docs/product/accounts.md#current-user", async () => {
    const client = new Client();
    const visitor = await client.fetch("/api/auth/me");
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual({ ok: false, user: null });
    const { username, email } = await client.register();
    const body = await (await client.fetch("/api/auth/me")).json();
    expect(body).toEqual({
      ok: true,
      user: { id: expect.any(Number), name: username, email, image: null, apiToken: expect.any(String), customization: { theme: null } },
    });
  });

  it("callback/credentials signs in with a form-encoded body and json=true", async () => {
    const { email, password } = await new Client().register();
    const client = new Client();
    const response = await client.signIn(email, password);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: "/" });
    expect((await (await client.fetch("/api/auth/me")).json()).ok).toBe(true);
  });

  it("signin/credentials without json redirects to the callbackUrl", async () => {
    const { email, password } = await new Client().register();
    const client = new Client();
    const csrfToken = await client.csrfToken();
    const response = await client.postForm("/api/auth/signin/credentials", { csrfToken, email, password, callbackUrl: "http://evil.example/x" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it("refuses a wrong password with 401 invalid_credentials and a missing token with 403", async () => {
    const { email } = await new Client().register();
    const client = new Client();
    const wrong = await client.signIn(email, "not-the-password");
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).errors).toMatchObject({ code: "invalid_credentials", message: "Неверный email или пароль" });
    const noToken = await client.postForm("/api/auth/callback/credentials", { email, password: "x", json: "true" });
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).errors.code).toBe("csrf_invalid");
  });

  it("answers 429 after 10 failed sign-ins for an account (docs/product/limits.md#rate-limits)", async () => {
    const { email, password } = await new Client().register();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      // A new address each time: the account's own counter must trip.
      statuses.push((await new Client(undefined, `198.18.${i}.1`).signIn(email, "wrong-password")).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const blocked = await new Client(undefined, "198.18.99.1").signIn(email, password);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).errors.code).toBe("rate_limited");
  });

  it("signout without a CSRF token answers 400 «Could not fetch CSRF Token for signing out»", async () => {
    const client = new Client();
    await client.register();
    const response = await client.postForm("/api/auth/signout", { callbackUrl: "/", json: "true" });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toMatchObject({ message: "Could not fetch CSRF Token for signing out" });
    expect((await (await client.fetch("/api/auth/me")).json()).ok).toBe(true);
  });

  it("answers a JSON or empty body with 400 invalid_body, never a 500", async () => {
    const client = new Client();
    for (const path of ["/api/auth/callback/credentials", "/api/auth/signout"]) {
      const response = await client.fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(response.status).toBe(400);
      expect((await response.json()).errors.code).toBe(path.endsWith("signout") ? "csrf_missing" : "invalid_body");
    }
  });

  it("answers a wrong method with JSON 405 method_not_allowed", async () => {
    const client = new Client();
    for (const [method, path] of [
      ["POST", "/api/auth/me"],
      ["GET", "/api/auth/signout"],
      ["GET", "/api/auth/callback/credentials"],
      ["DELETE", "/api/profile/1"],
      ["POST", "/api/profile/1/wall"],
      ["POST", "/api/profile/1/wall/pinned"],
      ["POST", "/api/profiles/search"],
      ["PUT", "/api/profiles/online"],
      ["POST", "/api/profile/1/comments"],
    ] as const) {
      const response = await client.fetch(path, { method });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect((await response.json()).errors.code).toBe("method_not_allowed");
    }
  });

  it("session reports the session's real expiry", async () => {
    const client = new Client();
    await client.register();
    const first = (await (await client.fetch("/api/auth/session")).json()).expires;
    const second = (await (await client.fetch("/api/auth/session")).json()).expires;
    expect(second).toBe(first);
  });

  it("signout with the token deletes the session, so the old cookie stops working", async () => {
    const client = new Client();
    await client.register();
    const csrfToken = await client.csrfToken();
    const response = await client.postForm("/api/auth/signout", { csrfToken, callbackUrl: "/", json: "true" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: "/" });
    expect((await client.fetch("/api/auth/me")).status).toBe(401);
  });
});
