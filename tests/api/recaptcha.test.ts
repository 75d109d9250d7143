/**
 * reCAPTCHA v3 on the registration and sign-in page forms (issue 6 "Captcha"). A server of its
 * own runs with both keys set and RECAPTCHA_VERIFY_URL pointing at a local stub of Google's
 * siteverify, which answers by token: "good-login", "good-register", "low", "down" (HTTP 503).
 * The shared server (no keys) shows the forms work unchanged without configuration.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";
import { Client, csrfFromHtml, decodeHtml } from "./client";

let stub: Server;
let server: RunningServer;
const received: Record<string, string>[] = [];

beforeAll(async () => {
  stub = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      received.push(form);
      const answers: Record<string, object> = {
        "good-login": { success: true, score: 0.9, action: "login" },
        "good-register": { success: true, score: 0.9, action: "register" },
        low: { success: true, score: 0.1, action: "register" },
      };
      if (form.response === "down") return res.writeHead(503).end();
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answers[form.response ?? ""] ?? { success: false, "error-codes": ["invalid-input-response"] }));
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  server = await startServer({
    RECAPTCHA_SITE_KEY: "test-site-key",
    RECAPTCHA_SECRET_KEY: "test-secret-key",
    RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(stub.address() as AddressInfo).port}/siteverify`,
  });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => stub?.close(resolve));
});

/** Opens the register page and posts it with `token` (omitted when undefined). */
async function registerWith(client: Client, token: string | undefined, username = `cap_${Math.random().toString(36).slice(2, 10)}`) {
  const html = await (await client.fetch("/auth/register")).text();
  const fields: Record<string, string> = {
    csrf: csrfFromHtml(html),
    username,
    email: `${username}@example.test`,
    password: "password-123",
    redirect: "",
    from__confirm: decodeHtml(/name="from__confirm" value="([^"]*)"/.exec(html)?.[1] ?? ""),
    name__confirm: "",
  };
  if (token !== undefined) fields.recaptchaToken = token;
  return { response: await client.postForm("/auth/register", fields), username, email: fields.email! };
}

async function loginWith(client: Client, email: string, token: string | undefined) {
  const html = await (await client.fetch("/auth/login")).text();
  const fields: Record<string, string> = { csrf: csrfFromHtml(html), email, password: "password-123", redirect: "" };
  if (token !== undefined) fields.recaptchaToken = token;
  return client.postForm("/auth/login", fields);
}

describe("reCAPTCHA configured", () => {
  it("the forms carry the token field and the CSP allows Google's script and frame", async () => {
    const response = await new Client(server.baseUrl).fetch("/auth/login");
    const html = await response.text();
    expect(html).toContain('name="recaptchaToken"');
    expect(html).toContain("test-site-key");
    expect(html).not.toContain("test-secret-key");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("https://www.gstatic.com/recaptcha/");
    expect(csp).toMatch(/frame-src[^;]*https:\/\/www\.google\.com\/recaptcha\//);
  });

  it("registration without a token explains that JavaScript is needed and creates no account", async () => {
    const client = new Client(server.baseUrl);
    const { response, email } = await registerWith(client, undefined);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("работает только с включённым JavaScript");
    expect((await client.fetch("/api/auth/me")).status).toBe(401);
    // No account: signing in with the same email is refused as wrong credentials.
    const login = await loginWith(new Client(server.baseUrl), email, "good-login");
    expect(login.status).toBe(400);
    expect(await login.text()).toContain("Неверный email или пароль");
  });

  it("refuses a low score and a token Google rejects; accepts a good one and sends the secret", async () => {
    const low = await registerWith(new Client(server.baseUrl), "low");
    expect(low.response.status).toBe(400);
    expect(await low.response.text()).toContain("Проверка reCAPTCHA не пройдена");
    const forged = await registerWith(new Client(server.baseUrl), "forged");
    expect(forged.response.status).toBe(400);
    const client = new Client(server.baseUrl);
    const good = await registerWith(client, "good-register");
    expect(good.response.status).toBe(302);
    expect((await client.fetch("/api/auth/me")).status).toBe(200);
    expect(received.at(-1)).toMatchObject({ secret: "test-secret-key", response: "good-register" });
  });

  it("sign-in refuses a token minted for registration and accepts one for login", async () => {
    const { email } = await registerWith(new Client(server.baseUrl), "good-register");
    const wrong = await loginWith(new Client(server.baseUrl), email, "good-register");
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Проверка reCAPTCHA не пройдена");
    const client = new Client(server.baseUrl);
    const ok = await loginWith(client, email, "good-login");
    expect(ok.status).toBe(302);
    expect((await client.fetch("/api/auth/me")).status).toBe(200);
  });

  it("the Auth.js-style sign-in call asks for a token too, so it is no way around the captcha", async () => {
    const { email } = await registerWith(new Client(server.baseUrl), "good-register");
    const client = new Client(server.baseUrl);
    const csrfToken = await client.csrfToken();
    const bare = await client.postForm("/api/auth/callback/credentials", { csrfToken, email, password: "password-123", json: "true" });
    expect(bare.status).toBe(400);
    expect((await bare.json()).errors.code).toBe("captcha_required");
    expect((await client.fetch("/api/auth/me")).status).toBe(401);
    const ok = await client.postForm("/api/auth/callback/credentials", {
      csrfToken,
      email,
      password: "password-123",
      json: "true",
      recaptchaToken: "good-login",
    });
    expect(ok.status).toBe(200);
    expect((await client.fetch("/api/auth/me")).status).toBe(200);
  });

  it("lets the form through when siteverify is down (fail-open)", async () => {
    const { email } = await registerWith(new Client(server.baseUrl), "good-register");
    const client = new Client(server.baseUrl);
    expect((await loginWith(client, email, "down")).status).toBe(302);
  });

  it("/admin/recaptcha-status shows the configuration and outcomes to the admin only", async () => {
    const admin = new Client(server.baseUrl);
    const signedIn = await admin.postForm("/api/auth/callback/credentials", {
      csrfToken: await admin.csrfToken(),
      email: "admin@shodka.local",
      password: "admin12345",
      json: "true",
      recaptchaToken: "good-login",
    });
    expect(signedIn.status).toBe(200);
    const page = await admin.fetch("/admin/recaptcha-status");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("включена");
    expect(html).toContain("test-site-key");
    expect(html).not.toContain("test-secret-key");
    expect(html).toContain("низкая оценка");
    expect(html).toContain("чужое действие");
    expect(html).toContain("Google недоступен");
    const member = new Client(server.baseUrl);
    await registerWith(member, "good-register");
    expect((await member.fetch("/admin/recaptcha-status")).status).toBe(403);
    const visitor = await new Client(server.baseUrl).fetch("/admin/recaptcha-status");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toContain("/auth/login");
  });
});

describe("reCAPTCHA not configured", () => {
  it("the forms have no token field, the CSP no Google, and registration and sign-in work without a token", async () => {
    const response = await new Client().fetch("/auth/register");
    expect(await response.text()).not.toContain('name="recaptchaToken"');
    expect(response.headers.get("Content-Security-Policy") ?? "").not.toContain("google");
    const client = new Client();
    const { email } = await client.register();
    expect((await client.fetch("/api/auth/me")).status).toBe(200);
    expect((await loginWith(new Client(), email, undefined)).status).toBe(302);
  });

  it("both forms always carry the honeypot, and a filled one is refused on sign-in", async () => {
    const client = new Client();
    const { email, password } = await new Client().register();
    for (const path of ["/auth/login", "/auth/register"]) {
      expect(await (await client.fetch(path)).text()).toMatch(/name="name__confirm"/);
    }
    const html = await (await client.fetch("/auth/login")).text();
    const fields = {
      csrf: csrfFromHtml(html),
      email,
      password,
      redirect: "",
      from__confirm: decodeHtml(/name="from__confirm" value="([^"]*)"/.exec(html)?.[1] ?? ""),
    };
    const bot = await client.postForm("/auth/login", { ...fields, name__confirm: "bot" });
    expect(bot.status).toBe(400);
    expect(await bot.text()).toContain("Форма отклонена");
    expect((await client.fetch("/api/auth/me")).status).toBe(401);
    expect((await client.postForm("/auth/login", { ...fields, name__confirm: "" })).status).toBe(302);
  });

  it("the status page says captcha is off", async () => {
    const admin = new Client();
    await admin.signIn("admin@shodka.local", "admin12345");
    const html = await (await admin.fetch("/admin/recaptcha-status")).text();
    expect(html).toContain("выключена");
    expect(html).toContain("Проверок ещё не было");
  });
});
