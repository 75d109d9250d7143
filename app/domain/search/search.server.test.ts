import { eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { posts } from "~/db/schema";
import { markdownExcerpt } from "~/lib/markdown.server";
import type { UserRow } from "../users/users.server";
import { countQueries } from "../../../tests/setup/query-count";
import { CANDIDATES, listPopularCategories, searchPosts } from "./search.server";

let t: TestDatabase;
let author: UserRow;
beforeAll(async () => {
  t = await createTestDatabase();
  author = await makeUser(t.db);
});
afterAll(async () => {
  await t.destroy();
});

const page = { page: 1, perPage: 10 };
let minutesAgo = 10_000;

/** Inserts a post directly (createPost allows one per 30 s); each one newer than the last. */
async function insertPost(input: { title: string; body?: string; categoryId?: number; kind?: "post" | "article" }): Promise<number> {
  const body = input.body ?? "Текст без особых слов.";
  minutesAgo -= 1;
  const [row] = await t.db
    .insert(posts)
    .values({
      authorId: author.id,
      title: input.title,
      body,
      excerpt: markdownExcerpt(body),
      categoryId: input.categoryId ?? 7,
      kind: input.kind ?? "post",
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    })
    .returning({ id: posts.id });
  return row!.id;
}

/**
 * Inserts `count` posts in one statement: titles `${titlePrefix}1`…, post i written `from` + i
 * seconds (so the last is the newest), each with `body` as body and excerpt.
 */
async function insertSeries(input: { count: number; categoryId: number; titlePrefix: string; body: string; from: SQL }): Promise<void> {
  await t.db.execute(sql`insert into posts (author_id, category_id, title, body, excerpt, created_at)
    select ${author.id}, ${input.categoryId}, ${input.titlePrefix} || i, ${input.body}, ${input.body}, ${input.from} + i * interval '1 second'
    from generate_series(1, ${input.count}) i`);
}

const textOf = (html: string) => html.replace(/<\/?mark>/g, "");

describe(`post search on ${engine}`, () => {
  it("finds another word form: «сделки» finds a post titled «…сделка…» (Russian stemming)", async () => {
    const id = await insertPost({ title: "Безопасная сделка через гаранта", body: "Проверяйте депозит продавца." });
    await insertPost({ title: "Продам велосипед", body: "Почти новый, без царапин." });
    for (const q of ["сделки", "сделкой", "СДЕЛКАМИ"]) {
      const found = await searchPosts(t.db, { q }, page);
      expect(found.items.map((hit) => hit.id)).toEqual([id]);
      expect(found).toMatchObject({ total: 1, searchable: true, q });
    }
    const [hit] = (await searchPosts(t.db, { q: "сделки" }, page)).items;
    expect(hit).toMatchObject({ title: "Безопасная сделка через гаранта", author: { id: author.id, username: author.username } });
    expect(hit!.titleHtml).toBe("Безопасная <mark>сделка</mark> через гаранта");
    expect(hit).not.toHaveProperty("body");
  });

  it("ranks a match in the title above a match in the body, even an older one", async () => {
    const inTitle = await insertPost({ title: "Обзор видеокарт для майнинга", body: "Сравниваем модели по цене." });
    const inBody = await insertPost({ title: "Мой путь в крипте", body: "Начинал с майнинга на старой видеокарте, потом перешёл на стейкинг." });
    const found = await searchPosts(t.db, { q: "видеокарта" }, page);
    expect(found.items.map((hit) => hit.id)).toEqual([inTitle, inBody]);
    expect(found.items[0]!.rank).toBeGreaterThan(found.items[1]!.rank);
    expect(found.items[1]!.snippetHtml).toContain("<mark>видеокарте</mark>");
  });

  it("filters by category (the category query value, docs/product/content.md#search)", async () => {
    const games = await insertPost({ title: "Продаю скины для CS2", categoryId: 2 });
    const offtopic = await insertPost({ title: "Какие скины вам нравятся?", categoryId: 8 });
    expect((await searchPosts(t.db, { q: "скин" }, page)).items.map((h) => h.id).sort()).toEqual([games, offtopic].sort());
    const filtered = await searchPosts(t.db, { q: "скин", categoryId: 2 }, page);
    expect(filtered.items.map((h) => h.id)).toEqual([games]);
    expect(filtered.items[0]!.category).toEqual({ id: 2, name: "Игры" });
    expect((await searchPosts(t.db, { q: "скин", categoryId: 4 }, page)).total).toBe(0);
  });

  it("highlights matches but escapes every bit of HTML a member typed", async () => {
    await insertPost({
      title: `Обмен <b>рублей</b> & "кавычки" <img src=x onerror=alert(1)>`,
      body: `Курс обмена хороший <img src=x onerror=alert(1)> <script>alert("x")</script> & ещё <a href="javascript:alert(1)">ссылка</a> обмен \u0002без\u0003 \u0003меток\u0002 обменяю`,
    });
    const [hit] = (await searchPosts(t.db, { q: "обмен" }, page)).items;
    for (const html of [hit!.titleHtml, hit!.snippetHtml]) {
      expect(html).toContain("<mark>");
      const withoutMarks = textOf(html);
      expect(withoutMarks).not.toMatch(/[<>"]/);
      expect(withoutMarks).not.toMatch(/[\u0002\u0003]/);
      expect(html.split("<mark>").length).toBe(html.split("</mark>").length);
    }
    expect(hit!.titleHtml).toBe(`<mark>Обмен</mark> &lt;b&gt;рублей&lt;/b&gt; &amp; &quot;кавычки&quot; &lt;img src=x onerror=alert(1)&gt;`);
    expect(hit!.snippetHtml).not.toContain("<mark>без</mark>");
  });

  it("reads Markdown bodies as prose in snippets", async () => {
    await insertPost({ title: "Гайд", body: "## Шаг первый\n\nПроверьте **транзакцию** продавца и [профиль](https://example.test/x) в `боте`." });
    const [hit] = (await searchPosts(t.db, { q: "транзакции" }, page)).items;
    expect(hit!.snippetHtml).toBe("Шаг первый Проверьте <mark>транзакцию</mark> продавца и профиль в боте");
  });

  it("answers empty, stop-word and garbage queries with an empty page, never an error", async () => {
    await insertPost({ title: "Пост про всё и ничего", body: "И в на с по." });
    for (const q of ["", "   ", "\u0000"]) {
      expect(await searchPosts(t.db, { q }, page)).toMatchObject({ items: [], total: 0, searchable: false, q: "" });
    }
    for (const q of ["и в на", "!!!", '"', "(((", "a:*|&", "'", "--", "OR", "«»", "*"]) {
      const found = await searchPosts(t.db, { q }, page);
      expect(found, q).toMatchObject({ items: [], total: 0, searchable: false });
    }
    for (const q of ["'; drop table posts; --", "сделка & | ! <-> :*", `${"сделка ".repeat(200)}`, "\u0000сделка\u0001", "\ud800сделка"]) {
      const found = await searchPosts(t.db, { q }, page);
      expect(found.searchable, q).toBe(true);
    }
    expect((await searchPosts(t.db, { q: "\u0000сделки" }, page)).total).toBe(1);
    expect((await searchPosts(t.db, { q: "сделка -гарант" }, page)).total).toBe(0);
    expect((await searchPosts(t.db, { q: '"безопасная сделка"' }, page)).total).toBe(1);
  });

  it("pages results ten at a time in two queries, however many there are", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await insertPost({ title: `Лот номер ${i + 1}: аукцион`, body: "Ставки принимаются до пятницы." }));
    const first = await countQueries(t.db, () => searchPosts(t.db, { q: "аукционы" }, { page: 1, perPage: 10 }));
    const second = await countQueries(t.db, () => searchPosts(t.db, { q: "аукционы" }, { page: 2, perPage: 10 }));
    expect(first.result).toMatchObject({ total: 12, totalPages: 2, page: 1 });
    expect(first.result.items).toHaveLength(10);
    expect(second.result.items).toHaveLength(2);
    // Equal ranks: newest first, and no post on both pages.
    expect([...first.result.items, ...second.result.items].map((h) => h.id)).toEqual([...ids].reverse());
    // The planner's estimate of the matches, then the newest matches ranked into a page.
    expect(first.queries).toBe(2);
    expect(second.queries).toBe(2);
    // A page past the end still knows the total, with no more queries.
    const past = await countQueries(t.db, () => searchPosts(t.db, { q: "аукционы" }, { page: 3, perPage: 10 }));
    expect(past.result).toMatchObject({ items: [], total: 12, searchable: true });
    expect(past.queries).toBe(2);
  });

  it("finds articles as well as posts, and lists the busiest categories", async () => {
    const article = await insertPost({ title: "Большой гайд по стейкингу", kind: "article", categoryId: 9 });
    const [hit] = (await searchPosts(t.db, { q: "стейкинг", categoryId: 9 }, page)).items;
    expect(hit).toMatchObject({ id: article, kind: "article" });
    const popular = await listPopularCategories(t.db, 3);
    const counts = await t.db.select({ categoryId: posts.categoryId }).from(posts);
    const offtopicCount = counts.filter((row) => row.categoryId === 7).length;
    expect(popular[0]).toEqual({ id: 7, name: "Обсуждения", postCount: offtopicCount });
    expect(popular.length).toBeLessThanOrEqual(3);
    expect(popular.map((c) => c.postCount)).toEqual([...popular.map((c) => c.postCount)].sort((a, b) => b - a));
  });

  it("sees an edited post under its new words", async () => {
    const id = await insertPost({ title: "Куплю монитор", body: "Недорого." });
    await t.db.update(posts).set({ title: "Куплю клавиатуру" }).where(eq(posts.id, id));
    expect((await searchPosts(t.db, { q: "монитор" }, page)).total).toBe(0);
    expect((await searchPosts(t.db, { q: "клавиатуры" }, page)).items.map((h) => h.id)).toEqual([id]);
  });

  it("finds a half-typed last word and a word typed with a Latin look-alike letter", async () => {
    const bike = await insertPost({ title: "Горный снегоход Буран", body: "Катался один сезон." });
    const sell = await insertPost({ title: "Продам коллекцию марок", body: "Марки СССР." });
    expect((await searchPosts(t.db, { q: "снегох" }, page)).items.map((hit) => hit.id)).toEqual([bike]);
    expect((await searchPosts(t.db, { q: "горный снегохо" }, page)).items.map((hit) => hit.id)).toEqual([bike]);
    // «Прoдам» with a Latin o, «мaрок» with a Latin a.
    expect((await searchPosts(t.db, { q: "Прoдам мaрок" }, page)).items.map((hit) => hit.id)).toEqual([sell]);
    // A stop-word is no prefix: «для» finds nothing rather than every word it begins.
    expect(await searchPosts(t.db, { q: "для" }, page)).toMatchObject({ total: 0, searchable: false });
  });

  it("ranks the newest thousand matches and says there are more; walking the newest posts finds the same", async () => {
    const word = "нумизматика";
    await insertSeries({ count: CANDIDATES + 5, categoryId: 8, titlePrefix: `${word} лот `, body: "Монеты", from: sql`now()` });
    await t.db.execute(sql`analyze posts`);
    const byIndex = await searchPosts(t.db, { q: word }, { page: 1, perPage: 50 });
    expect(byIndex).toMatchObject({ total: CANDIDATES, more: true, totalPages: CANDIDATES / 50 });
    // The five oldest matches are past the thousand: on no page.
    const last = await searchPosts(t.db, { q: word }, { page: CANDIDATES / 50, perPage: 50 });
    const titles = last.items.map((hit) => hit.title);
    expect(titles).toContain(`${word} лот 6`);
    expect(titles).not.toContain(`${word} лот 5`);

    const byWalk = await searchPosts(t.db, { q: word }, { page: 1, perPage: 50 }, { walkAboveMatches: 0 });
    expect(byWalk).toMatchObject({ total: CANDIDATES, more: true });
    expect(byWalk.items.map((hit) => hit.id)).toEqual(byIndex.items.map((hit) => hit.id));
    // The estimate, then the walk ranked into a page (a fallback to the index would be a third query).
    const lastByWalk = await countQueries(t.db, () => searchPosts(t.db, { q: word }, { page: CANDIDATES / 50, perPage: 50 }, { walkAboveMatches: 0 }));
    expect(lastByWalk.result.items.map((hit) => hit.id)).toEqual(last.items.map((hit) => hit.id));
    expect(lastByWalk.queries).toBe(2);
  });

  it("walks a category's newest posts when its word fills it, and finds what the index finds (decision 0052)", async () => {
    // A word that goes with its category: every newest post of category 6 holds it, which the
    // planner, taking word and category as independent, cannot know.
    const word = "филателия";
    await insertSeries({ count: 3500, categoryId: 6, titlePrefix: `${word} выпуск `, body: "Марки", from: sql`now() + interval '1 hour'` });
    await t.db.execute(sql`analyze posts`);
    const pageOf = { page: 1, perPage: 50 };
    const byIndex = await countQueries(t.db, () =>
      searchPosts(t.db, { q: word, categoryId: 6 }, pageOf, { probeAboveMatches: Infinity, recentFirstAboveMatches: Infinity }),
    );
    expect(byIndex.result).toMatchObject({ total: CANDIDATES, more: true });
    expect(byIndex.result.items[0]?.title).toBe(`${word} выпуск 3500`);
    // The estimate, the probe and the category's size side by side, then the walk ranked into a
    // page (a fallback to the index would be a fifth query).
    const byWalk = await countQueries(t.db, () => searchPosts(t.db, { q: word, categoryId: 6 }, pageOf, { probeAboveMatches: 0 }));
    expect(byWalk.result.items.map((hit) => hit.id)).toEqual(byIndex.result.items.map((hit) => hit.id));
    expect(byWalk.result).toMatchObject({ total: CANDIDATES, more: true });
    expect([byIndex.queries, byWalk.queries]).toEqual([2, 4]);
  });

  it("asks the index for recent months first, then for every month, and finds what one query over every month finds (decision 0060)", async () => {
    // A query of two words, 1 200 matches: 400 this month (the recent months), then 300 three months back,
    // 200 ten months back and 300 thirty months back: the newest thousand take all but 199 of those.
    const word = "фалеристика";
    const monthStart = sql`(date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`;
    const spread: [count: number, start: SQL][] = [
      [400, sql`now() - interval '1 hour'`],
      [300, sql`${monthStart} - interval '3 months' + interval '1 day'`],
      [200, sql`${monthStart} - interval '10 months' + interval '1 day'`],
      [300, sql`${monthStart} - interval '30 months' + interval '1 day'`],
    ];
    for (const [group, [count, from]] of spread.entries()) {
      await insertSeries({ count, categoryId: 5, titlePrefix: `${word} знак ${group + 1}-`, body: "Награды", from });
    }
    await t.db.execute(sql`analyze posts`);
    const oneQuery = { recentFirstAboveMatches: Infinity };
    const byMonth = { recentFirstAboveMatches: 0 };
    for (const pageOf of [
      { page: 1, perPage: 50 },
      { page: CANDIDATES / 50, perPage: 50 },
    ]) {
      const whole = await searchPosts(t.db, { q: `${word} знак` }, pageOf, oneQuery);
      const windowed = await countQueries(t.db, () => searchPosts(t.db, { q: `${word} знак` }, pageOf, byMonth));
      expect(windowed.result).toMatchObject({ total: CANDIDATES, more: true });
      expect(windowed.result.items.map((hit) => hit.id)).toEqual(whole.items.map((hit) => hit.id));
      expect(windowed.result.items).toHaveLength(50);
      // The estimate, the recent months ranked (too few: 400), then every month ranked.
      expect(windowed.queries).toBe(3);
    }
    // A single word never asks recent months first: its estimate is close (the index, once).
    const oneWord = await countQueries(t.db, () => searchPosts(t.db, { q: word }, { page: 1, perPage: 50 }, byMonth));
    expect(oneWord.result).toMatchObject({ total: CANDIDATES, more: true });
    expect(oneWord.queries).toBe(2);
    // The thousand reach back into the oldest group (equal ranks: newest first, so the last page
    // is its oldest fifty): its newest 100 are in, the 1 001st only says there are more.
    const last = await searchPosts(t.db, { q: `${word} знак` }, { page: CANDIDATES / 50, perPage: 50 }, byMonth);
    expect(last.items.map((hit) => hit.title)).toEqual(Array.from({ length: 50 }, (_, i) => `${word} знак 4-${250 - i}`));

    // Words found together nowhere: neither query finds a thing, and the page says so.
    expect(await searchPosts(t.db, { q: `${word} купюра` }, { page: 1, perPage: 10 }, byMonth)).toMatchObject({ items: [], total: 0, searchable: true });

    // A word with a thousand matches this month needs no other months.
    const recent = "бонистика";
    await insertSeries({ count: CANDIDATES + 20, categoryId: 5, titlePrefix: `${recent} купюра `, body: "Банкноты", from: sql`now() - interval '2 hours'` });
    const early = await countQueries(t.db, () => searchPosts(t.db, { q: `${recent} купюра` }, { page: 1, perPage: 10 }, byMonth));
    expect(early.result).toMatchObject({ total: CANDIDATES, more: true });
    expect(early.result.items[0]?.title).toBe(`${recent} купюра ${CANDIDATES + 20}`);
    // The estimate, then the recent months ranked, as a search with no other way.
    expect(early.queries).toBe(2);
  });
});
