/**
 * /ads and /admin/ads over HTTP (issue 11; docs/product/pages.md#ads): who may request, review
 * and see what (visitor, member, another member, moderator, admin), bad input and short money
 * answered in Russian with nothing saved, a double submit held once, and the click redirect.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "./client";

interface Person {
  client: Client;
  id: number;
  csrf: string;
}

async function person(signIn?: { email: string; password: string }): Promise<Person> {
  const client = new Client();
  let csrf: string;
  if (signIn) {
    expect((await client.signIn(signIn.email, signIn.password)).status).toBeLessThan(400);
    csrf = csrfFromHtml(await (await client.fetch("/ads")).text());
  } else ({ csrf } = await client.register());
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
  return { client, id: me.id, csrf };
}

const adFields = (title: string, extra: Record<string, string> = {}) => ({
  intent: "request",
  slotId: "1",
  title,
  body: "Скины и аккаунты с гарантом",
  link: "https://example.com/shop",
  days: "2",
  ...extra,
});

async function requestAd(who: Person, fields: Record<string, string>, key: string = randomUUID()) {
  const response = await who.client.postForm("/ads", { csrf: who.csrf, key, ...fields });
  return { status: response.status, location: response.headers.get("Location"), html: response.status === 302 ? "" : decodeHtml(await response.text()) };
}

async function review(who: Person, fields: Record<string, string>) {
  return who.client.postForm("/admin/ads", { csrf: who.csrf, key: randomUUID(), ...fields });
}

/** Ids of `who`'s ad requests listed on /ads with `title`. */
async function myAdIds(who: Person, title: string): Promise<number[]> {
  const html = decodeHtml(await (await who.client.fetch("/ads")).text()).replaceAll("<!-- -->", "");
  return [...html.matchAll(/№(\d+) «([^»]+)»/g)].filter((m) => m[2] === title).map((m) => Number(m[1]));
}

let admin: Person;
let moderator: Person;
let advertiser: Person;
let other: Person;

beforeAll(async () => {
  [admin, moderator, advertiser, other] = await Promise.all([
    person({ email: "admin@shodka.local", password: "admin12345" }),
    person({ email: "moderator@shodka.local", password: "moder12345" }),
    person(),
    person(),
  ]);
  const topped = await admin.client.fetch("/api/admin/payments/topup", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": await admin.client.csrfToken(), "Idempotency-Key": randomUUID() },
    body: JSON.stringify({ memberId: advertiser.id, amount: 1_000_000 }),
  });
  expect(topped.status).toBe(200);
});

describe("who may do what", () => {
  it("a visitor sees the slots and a sign-in link; requesting and reviewing send them to sign in", async () => {
    const visitor = new Client();
    const page = decodeHtml(await (await visitor.fetch("/ads")).text());
    expect(page).toContain("Баннер в ленте");
    expect(page).toContain("чтобы заказать рекламу");
    expect(page).not.toContain("Раздел скоро появится");
    const csrf = csrfFromHtml(page);
    for (const [path, fields] of [
      ["/ads", adFields("Реклама гостя")],
      ["/admin/ads", { intent: "approve", adId: "1" }],
    ] as const) {
      const response = await visitor.postForm(path, { csrf, key: randomUUID(), ...fields });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toMatch(/^\/auth\/login\?redirect=/);
    }
    const admin = await visitor.fetch("/admin/ads");
    expect(admin.status).toBe(302);
    expect(admin.headers.get("Location")).toMatch(/^\/auth\/login\?redirect=%2Fadmin%2Fads/);
  });

  it("members and moderators cannot open /admin/ads or review; the admin approves; only the advertiser sees the request", async () => {
    const title = `Заявка ${randomUUID().slice(0, 8)}`;
    expect((await requestAd(advertiser, adFields(title))).status).toBe(302);
    const [adId] = await myAdIds(advertiser, title);
    expect(adId).toBeGreaterThan(0);
    expect(await myAdIds(other, title)).toEqual([]);

    for (const who of [moderator, other, advertiser]) {
      expect((await who.client.fetch("/admin/ads")).status).toBe(403);
      expect((await review(who, { intent: "approve", adId: String(adId) })).status).toBe(403);
      expect((await review(who, { intent: "reject", adId: String(adId), reason: "Нет" })).status).toBe(403);
    }
    expect(decodeHtml(await (await advertiser.client.fetch("/ads")).text())).toContain("На проверке");
    expect((await advertiser.client.fetch(`/ads/${adId}/click`)).status).toBe(404);

    const adminPage = decodeHtml(await (await admin.client.fetch("/admin/ads")).text());
    expect(adminPage).toContain(title);
    const approved = await review(admin, { intent: "approve", adId: String(adId) });
    expect(approved.status).toBe(302);
    expect((await review(admin, { intent: "reject", adId: String(adId), reason: "Поздно" })).status).toBe(409);

    const click = await new Client().fetch(`/ads/${adId}/click`);
    expect(click.status).toBe(302);
    expect(click.headers.get("Location")).toBe("https://example.com/shop");
    const home = await (await new Client().fetch("/")).text();
    expect(home).toContain(`href="/ads/${adId}/click"`);
    expect(home).toContain('rel="sponsored noopener"');
  });
});

describe("bad input and money", () => {
  it.each([
    ["javascript:alert(1)", "Ссылка должна начинаться с http:// или https://"],
    ["data:text/html,<b>1</b>", "Ссылка должна начинаться с http:// или https://"],
  ])("refuses the link %s in Russian and saves nothing", async (link, message) => {
    const title = `Плохая ссылка ${randomUUID().slice(0, 8)}`;
    const answer = await requestAd(advertiser, adFields(title, { link }));
    expect(answer.status).toBe(400);
    expect(answer.html).toContain(message);
    expect(await myAdIds(advertiser, title)).toEqual([]);
  });

  it("refuses a file that is not a picture, saving nothing", async () => {
    const title = `Не картинка ${randomUUID().slice(0, 8)}`;
    const form = new FormData();
    for (const [name, value] of Object.entries({ csrf: advertiser.csrf, key: randomUUID(), ...adFields(title) })) form.set(name, value);
    form.set("image", new Blob(["<svg onload=alert(1)></svg>"], { type: "image/png" }), "banner.png");
    const response = await advertiser.client.fetch("/ads", { method: "POST", body: form });
    expect(response.status).toBe(400);
    expect(decodeHtml(await response.text())).toContain("Картинка должна быть изображением JPEG, PNG, WebP, GIF или AVIF");
    expect(await myAdIds(advertiser, title)).toEqual([]);
  });

  it("bad slot, days and an empty reason are refused, never a 500", async () => {
    expect((await requestAd(advertiser, adFields("Нет слота", { slotId: "999999" }))).status).toBe(404);
    expect((await requestAd(advertiser, adFields("Много дней", { days: "31" }))).status).toBe(400);
    expect((await requestAd(advertiser, adFields("Дни словами", { days: "два" }))).status).toBe(400);
    expect((await requestAd(advertiser, adFields("Без ключа"), "ключ с пробелами")).status).toBe(400);
    expect((await review(admin, { intent: "reject", adId: "1", reason: "" })).status).toBe(400);
    expect((await review(admin, { intent: "approve", adId: "abc" })).status).toBe(400);
    expect((await admin.client.fetch("/ads/abc/click")).status).toBe(404);
  });

  it("not enough money: 422 with the price and the balance, nothing saved", async () => {
    const title = `Без денег ${randomUUID().slice(0, 8)}`;
    const answer = await requestAd(other, adFields(title));
    expect(answer.status).toBe(422);
    expect(answer.html).toMatch(/Недостаточно денег на балансе: реклама стоит 600,00\s₽, доступно 0,00\s₽/u);
    expect(await myAdIds(other, title)).toEqual([]);
  });

  it("a double submit with the same key makes one request", async () => {
    const title = `Дважды ${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const [first, second] = await Promise.all([requestAd(advertiser, adFields(title), key), requestAd(advertiser, adFields(title), key)]);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(await myAdIds(advertiser, title)).toHaveLength(1);
  });
});
