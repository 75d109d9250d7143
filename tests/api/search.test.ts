/**
 * Search, people search, the online list and the sitemap over HTTP (issue 3 items 6 and 9),
 * against the built server on the seeded demo database.
 */
import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "./client";

const PRIVATE_FIELDS = ["email", "apiToken", "passwordHash", "password_hash", "theme", "role"];

function expectPublicOnly(items: Record<string, unknown>[]) {
  for (const item of items) {
    for (const field of PRIVATE_FIELDS) expect(item).not.toHaveProperty(field);
    expect(Object.keys(item)).toEqual(expect.arrayContaining(["id", "username", "displayName", "image", "ranks"]));
  }
}

async function registered() {
  const client = new Client();
  const member = await client.register(`srch_${Math.random().toString(36).slice(2, 9)}`);
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; apiToken: string };
  return { client, ...member, id: me.id, apiToken: me.apiToken };
}

async function publish(client: Client, fields: { title: string; body: string; categoryId: string }) {
  const csrf = csrfFromHtml(await (await client.fetch("/posts/new")).text());
  const response = await client.postForm("/posts/new", { csrf, kind: "post", ...fields });
  expect(response.status).toBe(302);
  return Number(response.headers.get("Location")!.split("/").pop());
}

describe("GET /api/profiles/search", () => {
  it("finds a member by username prefix for visitors, other members and the member alike, without private fields", async () => {
    const owner = await registered();
    const other = await registered();
    const prefix = owner.username.slice(0, 9);
    for (const caller of [new Client(), other.client, owner.client]) {
      const response = await caller.fetch(`/api/profiles/search?q=${encodeURIComponent(prefix.toUpperCase())}&perPage=50`);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({ page: 1, perPage: 50 });
      const found = body.data.items.find((item: { id: number }) => item.id === owner.id);
      expect(found).toEqual({ id: owner.id, username: owner.username, displayName: null, image: null, ranks: [] });
      expectPublicOnly(body.data.items);
      const text = JSON.stringify(body);
      expect(text).not.toContain(owner.email);
      expect(text).not.toContain(owner.apiToken);
    }
  });

  it("puts a prefix match before similar names, and answers odd input with 200", async () => {
    const body = await (await new Client().fetch("/api/profiles/search?q=dem")).json();
    expect(body.data.items[0]).toMatchObject({ username: "demo" });
    for (const q of ["", "%25", "_", "@", "%27%3B%20drop%20table%20users%3B", "x".repeat(300)]) {
      const response = await new Client().fetch(`/api/profiles/search?q=${q}&page=abc&perPage=9999`);
      expect(response.status, q).toBe(200);
      expect((await response.json()).data).toMatchObject({ page: 1, perPage: 50 });
    }
    const empty = await (await new Client().fetch("/api/profiles/search")).json();
    expect(empty).toEqual({ success: true, data: { items: [], page: 1, perPage: 10, total: 0, totalPages: 1 } });
  });
});

describe("GET /api/profiles/online", () => {
  it("lists a member who just used the site first, for any caller, without private fields", async () => {
    const member = await registered();
    for (const caller of [new Client(), member.client]) {
      const response = await caller.fetch("/api/profiles/online?perPage=50");
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.data.total).toBeGreaterThanOrEqual(1);
      const mine = body.data.items.find((item: { id: number }) => item.id === member.id);
      expect(mine).toMatchObject({ id: member.id, username: member.username });
      expect(Date.now() - Date.parse(mine.lastSeenAt)).toBeLessThan(5 * 60 * 1000);
      const seen = body.data.items.map((item: { lastSeenAt: string }) => Date.parse(item.lastSeenAt));
      expect(seen).toEqual([...seen].sort((a, b) => b - a));
      expectPublicOnly(body.data.items);
      expect(JSON.stringify(body)).not.toContain(member.email);
    }
  });
});

describe("/search", () => {
  it("finds a post through another word form, with the query in the title and the match highlighted", async () => {
    const author = await registered();
    const word = `зефир${Array.from({ length: 6 }, () => "бвгджзклмнпрстфхцчш"[Math.floor(Math.random() * 19)]).join("")}`;
    const id = await publish(author.client, { title: `Надёжная сделка ${word}`, body: "Через гаранта, <b>без</b> предоплаты.", categoryId: "1" });

    const html = await (await new Client().fetch(`/search?q=${encodeURIComponent(`сделки ${word}`)}`)).text();
    expect(decodeHtml(/<title>([^<]*)<\/title>/.exec(html)![1]!)).toBe(`«сделки ${word}» — поиск | Сходка`);
    expect(html).toContain(`href="/post/${id}"`);
    expect(html).toContain("<mark>сделка</mark>");
    expect(html).not.toContain("<b>без</b>");
    expect(html).toContain('data-background="default"');

    const filtered = await (await new Client().fetch(`/search?q=${encodeURIComponent(word)}&category=5`)).text();
    expect(filtered).not.toContain(`href="/post/${id}"`);
    expect(filtered).toContain('data-background="torgovlia"');
    expect(filtered).toContain("/images/search/torgovlia.svg");
  });

  it("shows an empty state for no query and a message for nothing to search, never an error", async () => {
    const empty = await new Client().fetch("/search");
    expect(empty.status).toBe(200);
    const html = await empty.text();
    expect(html).toContain("<title>Поиск | Сходка</title>");
    expect(html).toContain("Популярные категории");
    for (const q of ["и в на", "!!!", "'", "(((", "%00", "a:*|&"]) {
      const response = await new Client().fetch(`/search?q=${encodeURIComponent(q)}&category=99&page=-1`);
      expect(response.status, q).toBe(200);
    }
    expect(await (await new Client().fetch("/search?q=%D0%B8%20%D0%B2%20%D0%BD%D0%B0")).text()).toContain("В запросе нет слов для поиска");
    for (const [category, background] of [
      ["2", "games"],
      ["3", "games"],
      ["4", "crypta"],
      ["9", "crypta"],
      ["7", "default"],
    ]) {
      expect(await (await new Client().fetch(`/search?category=${category}`)).text()).toContain(`data-background="${background}"`);
    }
  });
});

describe("sitemap.xml", () => {
  it("lists sections, posts and profiles as XML, and no part files below 50 000 URLs", async () => {
    const author = await registered();
    const id = await publish(author.client, { title: "Пост для карты сайта", body: "Текст", categoryId: "7" });
    const response = await new Client().fetch("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain("<urlset ");
    expect(xml).toMatch(new RegExp(`<loc>[^<]*/post/${id}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT[^<]+</lastmod>`));
    expect(xml).toMatch(new RegExp(`<loc>[^<]*/profile/${author.id}</loc><lastmod>`));
    expect(xml).toMatch(/<loc>[^<]*\/search<\/loc>/);
    for (const file of ["1.xml", "0.xml", "x.xml"]) {
      const part = await new Client().fetch(`/sitemaps/${file}`);
      expect(part.status).toBe(404);
    }
  });
});
