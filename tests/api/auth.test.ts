import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";

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

  it("answers 429 after 10 failed sign-ins for an account from one address, but lets the owner in from another (issue 13 item 2)", async () => {
    const { email, password } = await new Client().register();
    const attacker = `198.18.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await new Client(undefined, attacker).signIn(email, "wrong-password")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const blocked = await new Client(undefined, attacker).signIn(email, password);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await blocked.json()).errors.code).toBe("rate_limited");
    expect((await new Client().signIn(email, password)).status).toBe(200);
  });

  it("never locks the owner out: wrong passwords from rotating addresses leave the right one working (issue 13 item 2)", async () => {
    const { email, password } = await new Client().register();
    for (let i = 0; i < 12; i++) {
      expect((await new Client(undefined, `198.19.${i}.${Math.floor(Math.random() * 250) + 1}`).signIn(email, "wrong-password")).status).toBe(401);
    }
    expect((await new Client().signIn(email, password)).status).toBe(200);
  });

  it("caps the slow-down: at most 5 attempts on an account wait, the rest are refused at once with 429 and Retry-After (issue 13 item 2)", async () => {
    const { email, password } = await new Client().register();
    const rotating = () => `198.21.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    for (let i = 0; i < 10; i++) expect((await new Client(undefined, rotating()).signIn(email, "wrong-password")).status).toBe(401);

    // JSON calls: tokens first, so the 8 guesses reach the server together.
    const guessers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new Client(undefined, rotating());
        return { client, csrfToken: await client.csrfToken() };
      }),
    );
    const answers = await Promise.all(
      guessers.map(({ client, csrfToken }) =>
        client.postForm("/api/auth/callback/credentials", { csrfToken, email, password: "wrong-password", json: "true", callbackUrl: "/" }),
      ),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(5);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.headers.get("Retry-After")).toBe("2");
      expect((await answer.json()).errors).toMatchObject({ code: "login_busy", message: expect.stringContaining("Подождите") });
    }

    // The sign-in page (a form without JavaScript): the same cap, with the Russian message beside the form.
    const visitors = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new Client(undefined, rotating());
        return { client, csrf: csrfFromHtml(await (await client.fetch("/auth/login")).text()) };
      }),
    );
    const pages = await Promise.all(
      visitors.map(({ client, csrf }) => client.postForm("/auth/login", { csrf, email, password: "wrong-password", redirect: "" })),
    );
    const busyPages = pages.filter((page) => page.status === 429);
    expect(pages.filter((page) => page.status === 400)).toHaveLength(5);
    expect(busyPages).toHaveLength(3);
    for (const page of busyPages) {
      expect(page.headers.get("Retry-After")).toBe("2");
      expect(await page.text()).toContain("Слишком много попыток входа в этот аккаунт. Подождите пару секунд и попробуйте снова.");
    }

    // The owner, once the room is empty, still signs in (after the slow-down).
    expect((await new Client().signIn(email, password)).status).toBe(200);
  });

  it("does not lock out everyone behind one address: a neighbour's failures leave a member's right password working (issue 13 item 2)", async () => {
    const office = `198.20.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250) + 1}`;
    const neighbour = await new Client().register();
    const colleague = await new Client().register();
    for (let i = 0; i < 10; i++) await new Client(undefined, office).signIn(`nobody-${i}-${neighbour.email}`, "wrong-password");
    for (let i = 0; i < 3; i++) await new Client(undefined, office).signIn(neighbour.email, "wrong-password");
    expect((await new Client(undefined, office).signIn(colleague.email, colleague.password)).status).toBe(200);
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
