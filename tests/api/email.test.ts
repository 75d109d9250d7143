/**
 * The email flows over HTTP (issue 6 "Email"): mail is written to the server's DATA_DIR/mail/
 * (no SMTP_URL), so these tests start their own server to read its mail folder.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredMail } from "~/lib/mail/mailer.server";
import { startServer, type RunningServer } from "../setup/server";
import { waitFor } from "../setup/wait";
import { Client, csrfFromHtml, decodeHtml } from "./client";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

async function mailsTo(to: string): Promise<StoredMail[]> {
  const dir = path.join(server.dataDir, "mail");
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names
      .filter((n) => n.endsWith(".json"))
      .sort()
      .map(async (n) => JSON.parse(await readFile(path.join(dir, n), "utf8")) as StoredMail),
  );
  return mails.filter((mail) => mail.to === to);
}

/** The link of the newest mail to `to` whose subject contains `subject`, as a path on the test server. */
async function linkFrom(to: string, subject: string): Promise<string> {
  const mail = await waitFor(async () => (await mailsTo(to)).reverse().find((m) => m.subject.includes(subject)), `a mail «${subject}» to ${to}`);
  const url = new URL(mail.links[0]!);
  return url.pathname + url.search;
}

const tokenOf = (link: string) => new URL(link, "http://x").searchParams.get("token")!;

async function newMember() {
  const client = new Client(server.baseUrl);
  const account = await client.register();
  return { client, ...account };
}

async function me(client: Client) {
  const response = await client.fetch("/api/auth/me");
  return response.status === 200 ? ((await response.json()) as { user: { email: string } }).user : null;
}

async function postForgot(client: Client, email: string): Promise<Response> {
  const html = await (await client.fetch("/auth/password/forgot")).text();
  const from = decodeHtml(/name="from__confirm" value="([^"]*)"/.exec(html)?.[1] ?? "");
  return client.postForm("/auth/password/forgot", { csrf: csrfFromHtml(html), email, from__confirm: from, name__confirm: "" });
}

describe("email verification", () => {
  it("registration mails an absolute link that verifies the address once; a signed-in member lands on /profile", async () => {
    const { client, email } = await newMember();
    const mail = (await waitFor(async () => (await mailsTo(email))[0], "the verification mail"))!;
    expect(mail.subject).toBe("Подтвердите email на сайте Сходка");
    expect(mail.links[0]).toMatch(/^http:\/\/localhost:\d+\/auth\/email\/validate\?token=[A-Za-z0-9_-]{43}$/);
    expect(await (await client.fetch("/profile/settings")).text()).toContain("Отправить ссылку ещё раз");

    const link = await linkFrom(email, "Подтвердите email");
    const page = await client.fetch(link);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/profile");
    expect(await (await client.fetch("/profile")).text()).toContain("Email подтверждён");
    expect(await (await client.fetch("/profile/settings")).text()).not.toContain("Отправить ссылку ещё раз");
    expect(await (await new Client(server.baseUrl).fetch(link)).text()).toContain("Эта ссылка уже использована");
  });

  it("a visitor opening the link sees the result on the page", async () => {
    const { email } = await newMember();
    const link = await linkFrom(email, "Подтвердите email");
    const page = await new Client(server.baseUrl).fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Email подтверждён");
  });

  it("a signed-in unverified member can ask for a new link from the settings; a forged link and a forged form are refused", async () => {
    const { client, email } = await newMember();
    const html = await (await client.fetch("/profile/settings")).text();
    const resent = await client.postForm("/auth/email/validate", { csrf: csrfFromHtml(html) });
    expect(resent.status).toBe(302);
    expect(resent.headers.get("Location")).toBe("/profile/settings#email");
    await waitFor(async () => (await mailsTo(email)).length === 2, "the second verification mail");
    const forgedLink = await client.fetch(`/auth/email/validate?token=${"x".repeat(43)}`);
    expect(forgedLink.headers.get("Location")).toBe("/profile");
    expect(await (await client.fetch("/profile")).text()).toContain("Ссылка недействительна");
    expect(await (await new Client(server.baseUrl).fetch(`/auth/email/validate?token=${"x".repeat(43)}`)).text()).toContain("Ссылка недействительна");
    const forged = await client.postForm("/auth/email/validate", { csrf: "forged" });
    expect(forged.status, forged.headers.get("Location") ?? "").toBe(403);
  });
});

describe("password reset", () => {
  it("answers the same for known and unknown addresses and mails only the member", async () => {
    const { email } = await newMember();
    const unknown = `nobody_${Date.now()}@example.test`;
    const known = await postForgot(new Client(server.baseUrl), email);
    const missing = await postForgot(new Client(server.baseUrl), unknown);
    expect(known.status).toBe(200);
    expect(missing.status).toBe(200);
    const notice = (html: string, address: string) =>
      /data-testid="forgot-sent"[^>]*>([^<]*(?:<!-- -->[^<]*)*)/.exec(html)?.[1]?.replaceAll("<!-- -->", "").replace(address, "X");
    expect(notice(await known.text(), email)).toBe(notice(await missing.text(), unknown));
    expect(notice(await (await postForgot(new Client(server.baseUrl), unknown)).text(), unknown)).toContain("Если аккаунт с адресом X существует");
    await linkFrom(email, "Сброс пароля");
    expect(await mailsTo(unknown)).toEqual([]);
  });

  it("the link sets a new password once, signs out every session and the new password signs in", async () => {
    const { client, email, password } = await newMember();
    const otherDevice = new Client(server.baseUrl);
    expect((await otherDevice.signIn(email, password)).status).toBe(200);
    await postForgot(new Client(server.baseUrl), email);
    const link = await linkFrom(email, "Сброс пароля");
    const visitor = new Client(server.baseUrl);
    const form = await (await visitor.fetch(link)).text();
    expect(form).toContain("Новый пароль");
    const mismatch = await visitor.postForm(link, { csrf: csrfFromHtml(form), token: tokenOf(link), password: "brand-new-pass", confirm: "other-pass-123" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Пароли не совпадают");
    const reset = await visitor.postForm(link, { csrf: csrfFromHtml(form), token: tokenOf(link), password: "brand-new-pass", confirm: "brand-new-pass" });
    expect(reset.status).toBe(302);
    expect(reset.headers.get("Location")).toBe("/auth/login");
    expect(await me(client)).toBeNull();
    expect(await me(otherDevice)).toBeNull();
    expect((await new Client(server.baseUrl).signIn(email, password)).status).not.toBe(200);
    expect((await new Client(server.baseUrl).signIn(email, "brand-new-pass")).status).toBe(200);
    expect(await (await visitor.fetch(link)).text()).toContain("Эта ссылка уже использована");
    // A signed-in member opening a reset link is sent to /profile (docs/product/routes.md#access-and-guards).
    const signedIn = new Client(server.baseUrl);
    expect((await signedIn.signIn(email, "brand-new-pass")).status).toBe(200);
    const opened = await signedIn.fetch(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/profile");
    const again = await visitor.postForm(link, { csrf: csrfFromHtml(form), token: tokenOf(link), password: "third-pass-123", confirm: "third-pass-123" });
    expect(again.status).toBe(400);
  });

  it("more than 5 requests an hour for one address answer 429", async () => {
    const address = `limited_${Date.now()}@example.test`;
    for (let i = 0; i < 5; i++) expect((await postForgot(new Client(server.baseUrl), address)).status).toBe(200);
    const refused = await postForgot(new Client(server.baseUrl), address);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Слишком много писем");
  });
});

describe("email change", () => {
  async function requestChange(client: Client, fields: Record<string, string>) {
    const html = await (await client.fetch("/auth/email/change")).text();
    return client.postForm("/auth/email/change", { csrf: csrfFromHtml(html), intent: "request", ...fields });
  }

  it("needs sign-in, the current password and a free address", async () => {
    expect((await new Client(server.baseUrl).fetch("/auth/email/change")).headers.get("Location")).toBe("/auth/login?redirect=%2Fauth%2Femail%2Fchange");
    const { client, password } = await newMember();
    const other = await newMember();
    const wrong = await requestChange(client, { email: `free_${Date.now()}@example.test`, currentPassword: "wrong-password" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Неверный пароль");
    const taken = await requestChange(client, { email: other.email.toUpperCase(), currentPassword: password });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Этот email уже зарегистрирован");
  });

  it("mails the new address; the address changes only through POST /api/profile/email/change/confirm, once", async () => {
    const { client, email, password } = await newMember();
    const newEmail = `moved_${Date.now()}@example.test`;
    const sent = await requestChange(client, { email: newEmail, currentPassword: password });
    expect(sent.status).toBe(200);
    expect((await sent.text()).replaceAll("<!-- -->", "")).toContain(`Мы отправили письмо на ${newEmail}`);
    const link = await linkFrom(newEmail, "новый email");
    expect(link).toMatch(/^\/auth\/email\/change\?token=/);
    expect((await me(client))!.email).toBe(email);
    expect(await mailsTo(email).then((mails) => mails.some((m) => m.subject.includes("новый email")))).toBe(false);

    // Another device, not signed in: the token is the proof; CSRF comes from /api/auth/csrf.
    const device = new Client(server.baseUrl);
    const csrf = await device.csrfToken();
    const post = (body: string, headers: Record<string, string> = { "X-CSRF-Token": csrf }) =>
      device.fetch("/api/profile/email/change/confirm", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
    const errorCode = async (response: Response) => ((await response.json()) as { errors: { code: string } }).errors.code;

    const forged = await post(JSON.stringify({ token: tokenOf(link) }), {});
    expect([forged.status, await errorCode(forged)]).toEqual([403, "csrf_invalid"]);
    const badBody = await post("not json");
    expect([badBody.status, await errorCode(badBody)]).toEqual([400, "invalid_body"]);
    const unknown = await post(JSON.stringify({ token: "y".repeat(43) }));
    expect([unknown.status, await errorCode(unknown)]).toEqual([400, "token_invalid"]);
    expect((await me(client))!.email).toBe(email);

    const confirmed = await post(JSON.stringify({ token: tokenOf(link) }));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ success: true, data: { email: newEmail } });
    expect((await me(client))!.email).toBe(newEmail);
    const reused = await post(JSON.stringify({ token: tokenOf(link) }));
    expect([reused.status, await errorCode(reused)]).toEqual([400, "token_used"]);
    expect((await new Client(server.baseUrl).signIn(newEmail, password)).status).toBe(200);
  });

  it("the mailed link's page confirms with a form post", async () => {
    const { client, password } = await newMember();
    const newEmail = `paged_${Date.now()}@example.test`;
    await requestChange(client, { email: newEmail, currentPassword: password });
    const link = await linkFrom(newEmail, "новый email");
    const html = await (await client.fetch(link)).text();
    expect(html).toContain(newEmail);
    const confirmed = await client.postForm(link, { csrf: csrfFromHtml(html), intent: "confirm", token: tokenOf(link) });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/profile");
    expect((await me(client))!.email).toBe(newEmail);
  });
});
