import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queriesOf } from "../../../tests/setup/query-count";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import { bookmarks } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { bookmarkedPostIds, listBookmarks, setBookmark, toggleBookmark } from "./bookmarks.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

describe(`bookmarks on ${engine}`, () => {
  it("toggles a bookmark, one per member per post; an explicit state is idempotent", async () => {
    const author = await makeUser(t.db);
    const reader = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    expect(await toggleBookmark(t.db, reader, postId)).toEqual({ bookmarked: true });
    expect(await setBookmark(t.db, reader, postId, true)).toEqual({ bookmarked: true });
    expect(await t.db.select().from(bookmarks).where(eq(bookmarks.userId, reader.id))).toHaveLength(1);
    expect(await toggleBookmark(t.db, reader, postId)).toEqual({ bookmarked: false });
    expect(await setBookmark(t.db, reader, postId, false)).toEqual({ bookmarked: false });
    expect(await t.db.select().from(bookmarks).where(eq(bookmarks.userId, reader.id))).toHaveLength(0);
    // An author may keep their own post too.
    expect(await toggleBookmark(t.db, author, postId)).toEqual({ bookmarked: true });
    await expect(toggleBookmark(t.db, reader, 987_654_321)).rejects.toBeInstanceOf(NotFound);
    await expect(toggleBookmark(t.db, reader, -5)).rejects.toMatchObject({ code: "post_not_found", status: 404 });
  });

  it("lists bookmarks newest first, paginated, and only the member's own", async () => {
    const author = await makeUser(t.db);
    const reader = await makeUser(t.db);
    const other = await makeUser(t.db);
    const ids = [];
    for (const title of ["Первый", "Второй", "Третий"]) ids.push(await makePost(t.db, author, title, 4));
    // Bookmarked in the order Второй, Первый, Третий, a minute apart, so the list is the reverse of
    // that. The minutes are set after the fact: PGlite's clock counts whole milliseconds, and three
    // bookmarks made one after the other can share one (the list then falls back to the post id).
    const base = Date.parse("2026-11-28T10:00:00Z");
    for (const [minute, id] of [ids[1]!, ids[0]!, ids[2]!].entries()) {
      await toggleBookmark(t.db, reader, id);
      await t.db
        .update(bookmarks)
        .set({ createdAt: new Date(base + minute * 60_000) })
        .where(and(eq(bookmarks.userId, reader.id), eq(bookmarks.postId, id)));
    }
    await toggleBookmark(t.db, other, ids[0]!);

    const first = await listBookmarks(t.db, reader.id, { page: 1, perPage: 2 });
    expect(first).toMatchObject({ total: 3, totalPages: 2, page: 1 });
    expect(first.items.map((b) => b.post.title)).toEqual(["Третий", "Первый"]);
    expect(first.items[0]!.post).toMatchObject({ author: { id: author.id, username: author.username }, category: { id: 4 } });
    expect(first.items[0]!.post).not.toHaveProperty("body");
    const second = await listBookmarks(t.db, reader.id, { page: 2, perPage: 2 });
    expect(second.items.map((b) => b.post.title)).toEqual(["Второй"]);
    expect((await listBookmarks(t.db, other.id, { page: 1, perPage: 10 })).items.map((b) => b.post.title)).toEqual(["Первый"]);

    await toggleBookmark(t.db, reader, ids[2]!);
    expect((await listBookmarks(t.db, reader.id, { page: 1, perPage: 10 })).items.map((b) => b.post.title)).toEqual(["Первый", "Второй"]);
  });

  it("bookmarkedPostIds answers for a whole feed in one query, and none for a visitor", async () => {
    const author = await makeUser(t.db);
    const reader = await makeUser(t.db);
    const ids = await Promise.all(Array.from({ length: 25 }, (_, i) => makePost(t.db, author, `Пост ${i}`)));
    const kept = ids.filter((_, i) => i % 4 === 1);
    for (const id of kept) await toggleBookmark(t.db, reader, id);

    let result = new Set<number>();
    expect(await queriesOf(t.db, async () => (result = await bookmarkedPostIds(t.db, reader.id, ids)))).toBe(1);
    expect([...result].sort((a, b) => a - b)).toEqual([...kept].sort((a, b) => a - b));
    expect(await queriesOf(t.db, async () => (result = await bookmarkedPostIds(t.db, null, ids)))).toBe(0);
    expect(result.size).toBe(0);
    // The bookmarks page is two queries whatever its length.
    expect(await queriesOf(t.db, () => listBookmarks(t.db, reader.id, { page: 1, perPage: 50 }))).toBe(2);
  });
});
