import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import type { Db } from "~/db/client.server";
import { posts, postViews } from "~/db/schema";
import { toggleBookmark } from "../bookmarks/bookmarks.server";
import { toggleLike } from "../likes/likes.server";
import { getPostEngagement, recordView } from "./engagement.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function viewsOf(db: Db, postId: number) {
  const [row] = await db.select({ views: posts.views }).from(posts).where(eq(posts.id, postId));
  return row!.views;
}

describe(`post views on ${engine}`, () => {
  it("counts a visitor once per post per day, and again the next day", async () => {
    const author = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    const otherPostId = await makePost(t.db, author, "Другой пост");
    const morning = new Date("2026-03-10T06:00:00Z");
    const evening = new Date("2026-03-10T20:00:00Z"); // 23:00 in Moscow: still 10 March
    const nextDay = new Date("2026-03-10T21:30:00Z"); // 00:30 on 11 March in Moscow

    await recordView(t.db, postId, "u:1", morning);
    await recordView(t.db, postId, "u:1", evening);
    await Promise.all([recordView(t.db, postId, "v:abc", morning), recordView(t.db, postId, "v:abc", morning)]);
    expect(await viewsOf(t.db, postId)).toBe(2);

    await recordView(t.db, postId, "u:1", nextDay);
    await recordView(t.db, otherPostId, "u:1", evening);
    expect(await viewsOf(t.db, postId)).toBe(3);
    expect(await viewsOf(t.db, otherPostId)).toBe(1);
    const days = await t.db.select({ day: postViews.day }).from(postViews).where(eq(postViews.postId, postId));
    expect(days.map((d) => d.day).sort()).toEqual(["2026-03-10", "2026-03-10", "2026-03-11"]);
  });

  it("ignores unknown and malformed post ids", async () => {
    await expect(recordView(t.db, 987_654_321, "v:zzz")).resolves.toBeUndefined();
    await expect(recordView(t.db, Number.NaN, "v:zzz")).resolves.toBeUndefined();
  });
});

describe(`engagement on ${engine}`, () => {
  it("tells a member whether they liked and bookmarked a post; a visitor neither", async () => {
    const author = await makeUser(t.db);
    const reader = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    expect(await getPostEngagement(t.db, reader.id, postId)).toEqual({ liked: false, bookmarked: false });
    await toggleLike(t.db, reader, "post", postId);
    expect(await getPostEngagement(t.db, reader.id, postId)).toEqual({ liked: true, bookmarked: false });
    await toggleBookmark(t.db, reader, postId);
    expect(await getPostEngagement(t.db, reader.id, postId)).toEqual({ liked: true, bookmarked: true });
    expect(await getPostEngagement(t.db, author.id, postId)).toEqual({ liked: false, bookmarked: false });
    expect(await getPostEngagement(t.db, null, postId)).toEqual({ liked: false, bookmarked: false });
  });
});
