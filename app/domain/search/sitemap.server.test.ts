import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { posts } from "~/db/schema";
import { countQueries } from "../../../tests/setup/query-count";
import { buildSitemap, buildSitemapPart, escapeXml, renderUrlset, SITEMAP_MAX_URLS, SITEMAP_STATIC_PATHS } from "./sitemap.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

const BASE = "https://shodka.example";

/**
 * A strict enough well-formedness check for the documents we write: an XML declaration,
 * one root, balanced tags, attribute values quoted, and no raw `<` or stray `&` in text.
 * Returns the root element's name.
 */
function assertWellFormedXml(xml: string): string {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = xml.slice(xml.indexOf("?>") + 2);
  const stack: string[] = [];
  let root = "";
  let rootClosed = false;
  for (const token of body.split(/(<[^<>]*>)/)) {
    if (token.startsWith("<")) {
      const tag = /^<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<&]*")*)\s*(\/?)>$/.exec(token);
      expect(tag, `malformed tag ${token}`).not.toBeNull();
      const [, closing, name, , selfClosing] = tag!;
      expect(rootClosed, `content after the root: ${token}`).toBe(false);
      if (closing) {
        expect(stack.pop(), `unbalanced ${token}`).toBe(name);
        if (stack.length === 0) rootClosed = true;
      } else if (!selfClosing) {
        if (stack.length === 0) root = name!;
        stack.push(name!);
      }
    } else {
      expect(token, "raw < in text").not.toMatch(/[<>]/);
      expect(token, "stray & in text").not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
      if (stack.length === 0) expect(token.trim()).toBe("");
    }
  }
  expect(stack).toEqual([]);
  return root;
}

const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[e]!);
const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => unescapeXml(m[1]!));
const lastmodsOf = (xml: string) =>
  [...xml.matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/url>/g)].map((m) => [unescapeXml(m[1]!), m[2] ?? null]);

describe(`sitemap.xml on ${engine}`, () => {
  it("escapes the five XML characters", () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    const xml = renderUrlset(`https://x.test/?a=1&b='<>"`, [{ path: "/post/1", lastmod: null }]);
    expect(assertWellFormedXml(xml)).toBe("urlset");
    expect(locsOf(xml)).toEqual([`https://x.test/?a=1&b='<>"/post/1`]);
  });

  it("lists the sections, every post and article and every profile, with lastmod", async () => {
    const alice = await makeUser(t.db);
    const bob = await makeUser(t.db);
    const created = new Date("2026-01-05T10:00:00.000Z");
    const edited = new Date("2026-02-01T08:30:00.000Z");
    const rows = await t.db
      .insert(posts)
      .values([
        { authorId: alice.id, title: "Первый пост", body: "Текст", categoryId: 1, createdAt: created },
        { authorId: alice.id, title: "Статья & <заметки>", body: "Текст", categoryId: 6, kind: "article", createdAt: new Date("2026-01-10T00:00:00.000Z") },
        { authorId: bob.id, title: "Третий", body: "Текст", categoryId: 2, createdAt: new Date("2026-01-07T00:00:00.000Z") },
      ])
      .returning({ id: posts.id });
    await t.db.update(posts).set({ editedAt: edited }).where(eq(posts.id, rows[0]!.id));

    const { result: sitemap, queries } = await countQueries(t.db, () => buildSitemap(t.db, BASE));
    expect(sitemap.kind).toBe("urlset");
    expect(assertWellFormedXml(sitemap.xml)).toBe("urlset");
    expect(sitemap.xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locsOf(sitemap.xml)).toEqual([
      ...SITEMAP_STATIC_PATHS.map((path) => BASE + path),
      ...rows.map((row) => `${BASE}/post/${row.id}`),
      `${BASE}/profile/${alice.id}`,
      `${BASE}/profile/${bob.id}`,
    ]);
    const lastmods = new Map(lastmodsOf(sitemap.xml) as [string, string | null][]);
    expect(lastmods.get(`${BASE}/post/${rows[0]!.id}`)).toBe(edited.toISOString());
    expect(lastmods.get(`${BASE}/post/${rows[1]!.id}`)).toBe("2026-01-10T00:00:00.000Z");
    // A profile changed when its owner last published (or when it was created, if later).
    expect(lastmods.get(`${BASE}/profile/${bob.id}`)).toBe(new Date(Math.max(bob.createdAt.getTime(), Date.parse("2026-01-07T00:00:00.000Z"))).toISOString());
    expect(lastmods.get(`${BASE}/`)).toBeNull();
    expect(queries).toBeLessThanOrEqual(4);
  });

  it("becomes an index of part files past the per-file limit, which together list every URL once", async () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    const whole = await buildSitemap(t.db, BASE);
    const all = locsOf(whole.xml);
    expect(all.length).toBe(SITEMAP_STATIC_PATHS.length + 3 + 2);

    const size = 5;
    const index = await buildSitemap(t.db, BASE, size);
    expect(index.kind).toBe("index");
    expect(assertWellFormedXml(index.xml)).toBe("sitemapindex");
    const files = Math.ceil(all.length / size);
    expect(index.kind === "index" && index.files).toBe(files);
    expect(locsOf(index.xml)).toEqual(Array.from({ length: files }, (_, i) => `${BASE}/sitemaps/${i + 1}.xml`));

    const parts: string[] = [];
    for (let n = 1; n <= files; n++) {
      const xml = await buildSitemapPart(t.db, BASE, `${n}.xml`, size);
      expect(xml).not.toBeNull();
      expect(assertWellFormedXml(xml!)).toBe("urlset");
      const locs = locsOf(xml!);
      expect(locs.length).toBeLessThanOrEqual(size);
      expect(locs.length).toBeGreaterThan(0);
      parts.push(...locs);
    }
    expect(parts).toEqual(all);

    for (const bad of [`${files + 1}.xml`, "0.xml", "01.xml", "1", "1.xml.gz", "abc.xml", "-1.xml", "99999999999.xml"]) {
      expect(await buildSitemapPart(t.db, BASE, bad, size), bad).toBeNull();
    }
    // Without an index (everything fits in /sitemap.xml) there are no part files.
    expect(await buildSitemapPart(t.db, BASE, "1.xml")).toBeNull();
  });
});
