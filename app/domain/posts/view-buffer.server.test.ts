import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import type { Db } from "~/db/client.server";
import { posts, postViews } from "~/db/schema";
import { flushViews, queueView, visitorKeyOf } from "./view-buffer.server";

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

describe(`buffered post views on ${engine}`, () => {
  it("counts a visitor once per post per Moscow day across flushes, and again the next day", async () => {
    const author = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    const otherPostId = await makePost(t.db, author, "Другой пост");
    const morning = new Date("2026-03-10T06:00:00Z");
    const evening = new Date("2026-03-10T20:00:00Z"); // 23:00 in Moscow: still 10 March
    const nextDay = new Date("2026-03-10T21:30:00Z"); // 00:30 on 11 March in Moscow

    queueView(t.db, postId, "u:1", morning);
    queueView(t.db, postId, "u:1", evening);
    queueView(t.db, postId, "v:abc", morning);
    queueView(t.db, postId, "v:abc", morning);
    expect(await viewsOf(t.db, postId)).toBe(0);
    await flushViews(t.db);
    expect(await viewsOf(t.db, postId)).toBe(2);

    queueView(t.db, postId, "u:1", evening);
    queueView(t.db, postId, "u:1", nextDay);
    queueView(t.db, otherPostId, "u:1", evening);
    await flushViews(t.db);
    expect(await viewsOf(t.db, postId)).toBe(3);
    expect(await viewsOf(t.db, otherPostId)).toBe(1);
    const days = await t.db.select({ day: postViews.day }).from(postViews).where(eq(postViews.postId, postId));
    expect(days.map((d) => d.day).sort()).toEqual(["2026-03-10", "2026-03-10", "2026-03-11"]);
  });

  it("skips unknown and malformed post ids and still counts the rest of the batch", async () => {
    const author = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    queueView(t.db, 987_654_321, "v:zzz");
    queueView(t.db, Number.NaN, "v:zzz");
    queueView(t.db, postId, 'v:quote"and,comma');
    await flushViews(t.db);
    expect(await viewsOf(t.db, postId)).toBe(1);
  });

  it("tells members apart by id and visitors by address and browser", () => {
    expect(visitorKeyOf(7, "10.0.0.1", "Firefox")).toBe("u:7");
    const visitor = visitorKeyOf(null, "10.0.0.1", "Firefox");
    expect(visitor).toMatch(/^v:[\w-]{22}$/);
    expect(visitorKeyOf(null, "10.0.0.1", "Firefox")).toBe(visitor);
    expect(visitorKeyOf(null, "10.0.0.2", "Firefox")).not.toBe(visitor);
    expect(visitorKeyOf(null, "10.0.0.1", "Chromium")).not.toBe(visitor);
  });
});
