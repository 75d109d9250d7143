import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queriesOf } from "../../../tests/setup/query-count";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import { commentLikes, comments, postLikes, posts, wallPostLikes, wallPosts } from "~/db/schema";
import type { Db } from "~/db/client.server";
import { Forbidden, NotFound, RateLimited } from "~/lib/errors";
import { eventBus, type DomainEvent } from "~/lib/events.server";
import { LIMITS } from "~/lib/rate-limit.server";
import type { UserRow } from "../users/users.server";
import { likedIds, setLike, toggleLike } from "./likes.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function makeComment(db: Db, author: UserRow, postId: number) {
  const [row] = await db.insert(comments).values({ postId, authorId: author.id, body: "Отличный пост" }).returning({ id: comments.id });
  return row!.id;
}

async function makeWallPost(db: Db, owner: UserRow, author: UserRow) {
  const [row] = await db.insert(wallPosts).values({ ownerId: owner.id, authorId: author.id, body: "Привет!" }).returning({ id: wallPosts.id });
  return row!.id;
}

async function postLikeCount(db: Db, postId: number) {
  const [row] = await db.select({ likeCount: posts.likeCount }).from(posts).where(eq(posts.id, postId));
  return row!.likeCount;
}

async function postLikeRows(db: Db, postId: number) {
  const [row] = await db.select({ value: count() }).from(postLikes).where(eq(postLikes.postId, postId));
  return row!.value;
}

describe(`likes on ${engine}`, () => {
  it("toggles a like on and off, one per member, keeping like_count in step", async () => {
    const author = await makeUser(t.db);
    const [ivan, olga] = [await makeUser(t.db), await makeUser(t.db)];
    const postId = await makePost(t.db, author);

    expect(await toggleLike(t.db, ivan, "post", postId)).toEqual({ liked: true, likeCount: 1 });
    expect(await toggleLike(t.db, olga, "post", postId)).toEqual({ liked: true, likeCount: 2 });
    expect(await toggleLike(t.db, ivan, "post", postId)).toEqual({ liked: false, likeCount: 1 });
    expect(await postLikeCount(t.db, postId)).toBe(1);
    expect(await postLikeRows(t.db, postId)).toBe(1);
    const [row] = await t.db.select().from(postLikes).where(eq(postLikes.postId, postId));
    expect(row).toMatchObject({ userId: olga.id, receiverId: author.id });
  });

  it("the database itself refuses a second like by the same member", async () => {
    const author = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    await toggleLike(t.db, fan, "post", postId);
    await expect(t.db.insert(postLikes).values({ postId, userId: fan.id, receiverId: author.id })).rejects.toThrow();
    await expect(t.db.insert(postLikes).values({ postId, userId: author.id, receiverId: author.id })).rejects.toThrow();
    expect(await postLikeRows(t.db, postId)).toBe(1);
  });

  it("setLike is idempotent: a stale «Нравится» click never takes a like back", async () => {
    const author = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    expect(await setLike(t.db, fan, "post", postId, true)).toEqual({ liked: true, likeCount: 1 });
    expect(await setLike(t.db, fan, "post", postId, true)).toEqual({ liked: true, likeCount: 1 });
    expect(await setLike(t.db, fan, "post", postId, false)).toEqual({ liked: false, likeCount: 0 });
    expect(await setLike(t.db, fan, "post", postId, false)).toEqual({ liked: false, likeCount: 0 });
    expect(await postLikeRows(t.db, postId)).toBe(0);
  });

  it("likes comments and wall posts with their own counters", async () => {
    const author = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const owner = await makeUser(t.db);
    const postId = await makePost(t.db, owner);
    const commentId = await makeComment(t.db, author, postId);
    const wallPostId = await makeWallPost(t.db, owner, author);

    expect(await toggleLike(t.db, fan, "comment", commentId)).toEqual({ liked: true, likeCount: 1 });
    expect(await toggleLike(t.db, fan, "wall_post", wallPostId)).toEqual({ liked: true, likeCount: 1 });
    expect(await toggleLike(t.db, owner, "comment", commentId)).toEqual({ liked: true, likeCount: 2 });
    expect(await toggleLike(t.db, fan, "comment", commentId)).toEqual({ liked: false, likeCount: 1 });

    const [comment] = await t.db.select({ likeCount: comments.likeCount }).from(comments).where(eq(comments.id, commentId));
    const [wall] = await t.db.select({ likeCount: wallPosts.likeCount }).from(wallPosts).where(eq(wallPosts.id, wallPostId));
    expect(comment!.likeCount).toBe(1);
    expect(wall!.likeCount).toBe(1);
    expect(await t.db.select().from(commentLikes).where(eq(commentLikes.commentId, commentId))).toMatchObject([{ userId: owner.id, receiverId: author.id }]);
    expect(await t.db.select().from(wallPostLikes).where(eq(wallPostLikes.wallPostId, wallPostId))).toMatchObject([{ userId: fan.id, receiverId: author.id }]);
    // The post itself was not liked by any of this.
    expect(await postLikeCount(t.db, postId)).toBe(0);
  });

  it("refuses a member's own item with own_item, and unknown items with NotFound", async () => {
    const author = await makeUser(t.db);
    const owner = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    const commentId = await makeComment(t.db, author, postId);
    const wallPostId = await makeWallPost(t.db, owner, author);

    for (const [target, id] of [
      ["post", postId],
      ["comment", commentId],
      ["wall_post", wallPostId],
    ] as const) {
      const refusal = toggleLike(t.db, author, target, id);
      await expect(refusal).rejects.toBeInstanceOf(Forbidden);
      await expect(refusal).rejects.toMatchObject({ code: "own_item", status: 403, message: expect.stringMatching(/^Нельзя оценить сво/) });
    }
    // The wall's owner did not write the entry, so they may like it.
    expect(await toggleLike(t.db, owner, "wall_post", wallPostId)).toEqual({ liked: true, likeCount: 1 });

    await expect(toggleLike(t.db, owner, "post", 987_654_321)).rejects.toMatchObject({ code: "post_not_found", status: 404 });
    await expect(toggleLike(t.db, owner, "comment", 987_654_321)).rejects.toMatchObject({ code: "comment_not_found" });
    await expect(toggleLike(t.db, owner, "wall_post", 987_654_321)).rejects.toMatchObject({ code: "wall_post_not_found" });
    await expect(toggleLike(t.db, owner, "post", Number.NaN)).rejects.toBeInstanceOf(NotFound);
    await expect(toggleLike(t.db, owner, "post", 1e12)).rejects.toBeInstanceOf(NotFound);
  });

  it("a deleted comment keeps its likes removable but takes no new ones", async () => {
    const author = await makeUser(t.db);
    const [early, late] = [await makeUser(t.db), await makeUser(t.db)];
    const postId = await makePost(t.db, author);
    const commentId = await makeComment(t.db, author, postId);
    await toggleLike(t.db, early, "comment", commentId);
    await t.db.update(comments).set({ deletedAt: new Date() }).where(eq(comments.id, commentId));
    await expect(toggleLike(t.db, late, "comment", commentId)).rejects.toMatchObject({ code: "comment_not_found" });
    expect(await toggleLike(t.db, early, "comment", commentId)).toEqual({ liked: false, likeCount: 0 });
  });

  it(`allows ${LIMITS.likes.points} likes given or taken back per hour, then answers 429`, async () => {
    const author = await makeUser(t.db);
    const busy = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    for (let i = 0; i < LIMITS.likes.points; i += 1) await toggleLike(t.db, busy, "post", postId);
    // An even number of toggles leaves the post unliked.
    expect(await postLikeCount(t.db, postId)).toBe(0);
    const refused = toggleLike(t.db, busy, "post", postId);
    await expect(refused).rejects.toBeInstanceOf(RateLimited);
    await expect(refused).rejects.toMatchObject({ status: 429, message: expect.stringContaining("Слишком много оценок") });
    expect(await postLikeCount(t.db, postId)).toBe(0);
    // Another member is not affected.
    expect(await toggleLike(t.db, await makeUser(t.db), "post", postId)).toEqual({ liked: true, likeCount: 1 });
  });

  it("publishes like.created and like.removed after the change, with the post of a comment", async () => {
    const author = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const postId = await makePost(t.db, author);
    const commentId = await makeComment(t.db, author, postId);
    const wallPostId = await makeWallPost(t.db, fan, author);
    const events: DomainEvent[] = [];
    const unsubscribe = eventBus(t.db).subscribe("*", (event) => {
      if (event.type === "like.created" || event.type === "like.removed") {
        if (event.likerId === fan.id) events.push(event);
      }
    });
    try {
      await toggleLike(t.db, fan, "post", postId);
      await toggleLike(t.db, fan, "comment", commentId);
      await toggleLike(t.db, fan, "wall_post", wallPostId);
      await toggleLike(t.db, fan, "post", postId);
      await setLike(t.db, fan, "comment", commentId, true); // no change, no event
      await eventBus(t.db).drain();
    } finally {
      unsubscribe();
    }
    const base = { likerId: fan.id, receiverId: author.id };
    expect(events).toEqual([
      { type: "like.created", target: "post", targetId: postId, postId, ...base },
      { type: "like.created", target: "comment", targetId: commentId, postId, ...base },
      { type: "like.created", target: "wall_post", targetId: wallPostId, postId: null, ...base },
      { type: "like.removed", target: "post", targetId: postId, ...base },
    ]);
  });

  it("likedIds answers for a whole list in one query, and none for a visitor", async () => {
    const author = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => makePost(t.db, author, `Пост ${i}`)));
    const liked = ids.filter((_, i) => i % 3 === 0);
    for (const id of liked) await toggleLike(t.db, fan, "post", id);

    let result = new Set<number>();
    expect(await queriesOf(t.db, async () => (result = await likedIds(t.db, fan.id, "post", ids)))).toBe(1);
    expect([...result].sort((a, b) => a - b)).toEqual(liked.sort((a, b) => a - b));
    expect(await queriesOf(t.db, async () => (result = await likedIds(t.db, null, "post", ids)))).toBe(0);
    expect(result.size).toBe(0);
    expect(await likedIds(t.db, fan.id, "post", [])).toEqual(new Set());
    expect(await likedIds(t.db, fan.id, "comment", ids)).toEqual(new Set());
  });
});

// Concurrency needs a real server: PGlite runs one query at a time (docs/product/engineering.md#tests).
if (process.env.TEST_DATABASE_URL) {
  describe("likes under concurrency on PostgreSQL", () => {
    it("20 members toggling at once leave like_count equal to the number of likes", async () => {
      const author = await makeUser(t.db);
      const members = await Promise.all(Array.from({ length: 20 }, () => makeUser(t.db)));
      const postId = await makePost(t.db, author);
      // Half of them liked the post before; all 20 toggle at the same moment.
      for (const member of members.slice(0, 10)) await toggleLike(t.db, member, "post", postId);
      // Several rounds, so that some of the 20 transactions surely overlap.
      for (let round = 1; round <= 4; round += 1) {
        const results = await Promise.all(members.map((member) => toggleLike(t.db, member, "post", postId)));
        const likedNow = round % 2 === 1;
        expect(results.map((r) => r.liked)).toEqual([...Array(10).fill(!likedNow), ...Array(10).fill(likedNow)]);
        expect(await postLikeRows(t.db, postId)).toBe(10);
        expect(await postLikeCount(t.db, postId)).toBe(10);
      }
    });

    it("a member's racing double clicks never count twice", async () => {
      const author = await makeUser(t.db);
      const members = await Promise.all(Array.from({ length: 5 }, () => makeUser(t.db)));
      const postId = await makePost(t.db, author);
      await Promise.all(members.flatMap((member) => [setLike(t.db, member, "post", postId, true), setLike(t.db, member, "post", postId, true)]));
      expect(await postLikeRows(t.db, postId)).toBe(5);
      expect(await postLikeCount(t.db, postId)).toBe(5);
      await Promise.all(
        members.flatMap((member) => [
          toggleLike(t.db, member, "post", postId),
          toggleLike(t.db, member, "post", postId),
          toggleLike(t.db, member, "post", postId),
        ]),
      );
      expect(await postLikeCount(t.db, postId)).toBe(await postLikeRows(t.db, postId));
    });
  });
}
