import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq, inArray, sql } from "drizzle-orm";
import { countQueries } from "../../../tests/setup/query-count";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import type { Db } from "~/db/client.server";
import { commentLikes, comments, deals, follows, ledgerAccounts, postLikes, posts, userAchievements, users, wallPostLikes, wallPosts } from "~/db/schema";
import { eventBus, type DomainEvent } from "~/lib/events.server";
import { evaluateAchievements, listAchievementStatus, listUserAchievements, registerAchievementRules } from "./achievements.server";
import { ACHIEVEMENTS } from "./definitions.server";
import { atLeast, countOf, on, type AchievementDefinition } from "./rules.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  registerAchievementRules(t.db);
});
afterAll(async () => {
  await t.destroy();
});

const DAY_MS = 24 * 60 * 60 * 1000;
let serial = 0;

/** Members inserted directly (no password hashing): fast enough for hundreds of likers. */
async function insertMembers(db: Db, n: number, values: Partial<typeof users.$inferInsert> = {}) {
  const rows = Array.from({ length: n }, () => {
    serial += 1;
    const username = `ach_${serial}_${Math.random().toString(36).slice(2, 7)}`;
    return { username, email: `${username}@example.test`, ...values };
  });
  return db.insert(users).values(rows).returning();
}

async function insertPosts(db: Db, authorId: number, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({ authorId, title: `Пост ${i + 1}`, body: "Текст", categoryId: 7 }));
  return db.insert(posts).values(rows).returning({ id: posts.id });
}

/** Publishes `event` as the acting code would, after its insert, and waits for the subscribers. */
async function publish(db: Db, event: DomainEvent) {
  eventBus(db).publish(event);
  await eventBus(db).drain();
}

async function earnedIds(db: Db, userId: number): Promise<string[]> {
  const rows = await db.select({ id: userAchievements.achievementId }).from(userAchievements).where(eq(userAchievements.userId, userId));
  return rows.map((r) => r.id).sort();
}

describe(`achievement definitions`, () => {
  it("cover docs/product/content.md#achievements, with unique ids and Russian titles", () => {
    expect(ACHIEVEMENTS.map((a) => a.id)).toEqual([
      "first_post",
      "posts_10",
      "posts_100",
      "likes_100",
      "likes_1000",
      "year_on_site",
      "verified",
      "first_deal",
      "deals_10",
      "deposit_10000",
    ]);
    expect(new Set(ACHIEVEMENTS.map((a) => a.id)).size).toBe(ACHIEVEMENTS.length);
    for (const a of ACHIEVEMENTS) {
      expect(a.title).toMatch(/[А-Яа-яЁё]/);
      expect(a.description).toMatch(/[А-Яа-яЁё]/);
      expect(a.triggers.length).toBeGreaterThan(0);
    }
  });
});

describe(`achievements on ${engine}`, () => {
  it("grants «Первый пост» on the first post, not before, dated when it happened, and only once", async () => {
    const [author] = await insertMembers(t.db, 1);
    await publish(t.db, { type: "follow.created", followerId: author!.id, followeeId: (await insertMembers(t.db, 1))[0]!.id });
    expect(await earnedIds(t.db, author!.id)).toEqual([]);

    const [post] = await insertPosts(t.db, author!.id, 1);
    const before = Date.now();
    await publish(t.db, { type: "post.created", postId: post!.id, authorId: author!.id, mentionedUserIds: [] });
    const after = Date.now();
    const [earned] = await listUserAchievements(t.db, author!.id);
    expect(earned).toMatchObject({ id: "first_post", title: "Первый пост", icon: "pen-line" });
    expect(Date.parse(earned!.earnedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(earned!.earnedAt)).toBeLessThanOrEqual(after + 1000);

    // Repeated events and direct calls neither grant it again nor move its date.
    for (let i = 0; i < 3; i++) await publish(t.db, { type: "post.created", postId: post!.id, authorId: author!.id, mentionedUserIds: [] });
    expect(await evaluateAchievements(t.db, author!.id)).toEqual([]);
    expect(await listUserAchievements(t.db, author!.id)).toEqual([earned]);
  });

  it("grants 10 and 100 posts exactly at the 10th and the 100th post", async () => {
    const [author] = await insertMembers(t.db, 1);
    const event = (postId: number): DomainEvent => ({ type: "post.created", postId, authorId: author!.id, mentionedUserIds: [] });

    const nine = await insertPosts(t.db, author!.id, 9);
    await publish(t.db, event(nine.at(-1)!.id));
    expect(await earnedIds(t.db, author!.id)).toEqual(["first_post"]);

    const [tenth] = await insertPosts(t.db, author!.id, 1);
    await publish(t.db, event(tenth!.id));
    expect(await earnedIds(t.db, author!.id)).toEqual(["first_post", "posts_10"]);

    const upTo99 = await insertPosts(t.db, author!.id, 89);
    await publish(t.db, event(upTo99.at(-1)!.id));
    expect(await earnedIds(t.db, author!.id)).toEqual(["first_post", "posts_10"]);

    const [hundredth] = await insertPosts(t.db, author!.id, 1);
    await publish(t.db, event(hundredth!.id));
    expect(await earnedIds(t.db, author!.id)).toEqual(["first_post", "posts_10", "posts_100"]);
  });

  it("counts likes received on posts, comments and wall posts: 100 and 1000, not one like earlier", async () => {
    const [receiver] = await insertMembers(t.db, 1);
    const likers = await insertMembers(t.db, 25);
    const receiverPosts = await insertPosts(t.db, receiver!.id, 40);
    const [comment] = await t.db.insert(comments).values({ postId: receiverPosts[0]!.id, authorId: receiver!.id, body: "Комментарий" }).returning();
    const [wallPost] = await t.db.insert(wallPosts).values({ ownerId: likers[0]!.id, authorId: receiver!.id, body: "Запись" }).returning();

    // Every like the receiver can get: the comment's and the wall post's first, then the posts'.
    type Like = { kind: "comment" | "wall_post" | "post"; itemId: number; likerId: number };
    const all: Like[] = [
      ...likers.map((l) => ({ kind: "comment" as const, itemId: comment!.id, likerId: l.id })),
      ...likers.map((l) => ({ kind: "wall_post" as const, itemId: wallPost!.id, likerId: l.id })),
      ...receiverPosts.flatMap((p) => likers.map((l) => ({ kind: "post" as const, itemId: p.id, likerId: l.id }))),
    ];
    let given = 0;
    const likeUpTo = async (total: number) => {
      const batch = all.slice(given, total);
      given = total;
      const of = (kind: Like["kind"]) => batch.filter((l) => l.kind === kind);
      if (of("comment").length)
        await t.db.insert(commentLikes).values(of("comment").map((l) => ({ commentId: l.itemId, userId: l.likerId, receiverId: receiver!.id })));
      if (of("wall_post").length)
        await t.db.insert(wallPostLikes).values(of("wall_post").map((l) => ({ wallPostId: l.itemId, userId: l.likerId, receiverId: receiver!.id })));
      for (let i = 0; i < of("post").length; i += 200) {
        await t.db.insert(postLikes).values(
          of("post")
            .slice(i, i + 200)
            .map((l) => ({ postId: l.itemId, userId: l.likerId, receiverId: receiver!.id })),
        );
      }
      const last = batch.at(-1)!;
      await publish(t.db, { type: "like.created", target: last.kind, targetId: last.itemId, likerId: last.likerId, receiverId: receiver!.id, postId: null });
    };

    // The receiver has 40 posts, so being evaluated also grants the post achievements.
    const likeBadges = async () => (await earnedIds(t.db, receiver!.id)).filter((id) => id.startsWith("likes_"));
    await likeUpTo(99);
    expect(await likeBadges()).toEqual([]);
    await likeUpTo(100);
    expect(await likeBadges()).toEqual(["likes_100"]);
    await likeUpTo(999);
    expect(await likeBadges()).toEqual(["likes_100"]);
    await likeUpTo(1000);
    expect(await likeBadges()).toEqual(["likes_100", "likes_1000"]);
    // The liker acted too: they were evaluated, and earned nothing.
    expect(await earnedIds(t.db, all[999]!.likerId)).toEqual([]);

    // Likes taken back later do not take an achievement away.
    await t.db.delete(postLikes).where(eq(postLikes.receiverId, receiver!.id));
    await publish(t.db, { type: "like.removed", target: "post", targetId: receiverPosts[0]!.id, likerId: likers[0]!.id, receiverId: receiver!.id });
    expect(await evaluateAchievements(t.db, receiver!.id)).toEqual([]);
    expect(await likeBadges()).toEqual(["likes_100", "likes_1000"]);
  });

  it("grants «Год с нами» on the member's first action after a year on the site, not at 364 days", async () => {
    const [member] = await insertMembers(t.db, 1, { createdAt: new Date(Date.now() - 364 * DAY_MS) });
    const [other] = await insertMembers(t.db, 1);
    await t.db.insert(follows).values({ followerId: member!.id, followeeId: other!.id });
    await publish(t.db, { type: "follow.created", followerId: member!.id, followeeId: other!.id });
    expect(await earnedIds(t.db, member!.id)).toEqual([]);

    await t.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 366 * DAY_MS) })
      .where(eq(users.id, member!.id));
    const [wallPost] = await t.db.insert(wallPosts).values({ ownerId: other!.id, authorId: member!.id, body: "Привет" }).returning();
    await publish(t.db, { type: "wall_post.created", wallPostId: wallPost!.id, ownerId: other!.id, authorId: member!.id, mentionedUserIds: [] });
    expect(await earnedIds(t.db, member!.id)).toEqual(["year_on_site"]);
    // The followee was not acting, so nothing was checked for them.
    expect(await earnedIds(t.db, other!.id)).toEqual([]);
  });

  it("grants «Проверенный» once the member is verified and acts, or opens their achievements", async () => {
    const [member, liked] = await insertMembers(t.db, 2);
    const [post] = await insertPosts(t.db, liked!.id, 1);
    const like: DomainEvent = { type: "like.created", target: "post", targetId: post!.id, likerId: member!.id, receiverId: liked!.id, postId: post!.id };
    await t.db.insert(postLikes).values({ postId: post!.id, userId: member!.id, receiverId: liked!.id });
    await publish(t.db, like);
    expect(await earnedIds(t.db, member!.id)).toEqual([]);

    await t.db
      .update(users)
      .set({ verified: true })
      .where(inArray(users.id, [member!.id, liked!.id]));
    await publish(t.db, like);
    expect(await earnedIds(t.db, member!.id)).toEqual(["verified"]);
    // The receiver is evaluated too, and every rule of theirs is checked then.
    expect(await earnedIds(t.db, liked!.id)).toEqual(["first_post", "verified"]);

    const [quiet] = await insertMembers(t.db, 1, { verified: true });
    expect(await evaluateAchievements(t.db, quiet!.id)).toEqual(["verified"]);
  });

  it("grants «Первая сделка» and «Надёжный партнёр» to both parties at the 1st and 10th completed deal", async () => {
    const [buyer, seller] = await insertMembers(t.db, 2);
    const deal = (state: "completed" | "refunded") => ({
      buyerId: buyer!.id,
      sellerId: seller!.id,
      createdBy: buyer!.id,
      amount: 100_000,
      fee: 5_000,
      feePayer: "buyer" as const,
      buyerFee: 5_000,
      sellerFee: 0,
      description: "Аккаунт",
      deadline: new Date(),
      state,
    });
    const complete = async (state: "completed" | "refunded" = "completed") => {
      const [row] = await t.db.insert(deals).values(deal(state)).returning({ id: deals.id });
      await publish(t.db, { type: "deal.completed", dealId: row!.id, buyerId: buyer!.id, sellerId: seller!.id });
    };
    await complete("refunded");
    expect(await earnedIds(t.db, buyer!.id)).toEqual([]);
    await complete();
    expect(await earnedIds(t.db, buyer!.id)).toEqual(["first_deal"]);
    expect(await earnedIds(t.db, seller!.id)).toEqual(["first_deal"]);
    for (let n = 2; n <= 9; n += 1) await complete();
    expect(await earnedIds(t.db, seller!.id)).toEqual(["first_deal"]);
    await complete();
    expect(await earnedIds(t.db, seller!.id)).toEqual(["deals_10", "first_deal"]);
  });

  it("grants «Солидный депозит» once the deposit reaches 10 000 ₽, not at 9 999,99 ₽", async () => {
    const [member] = await insertMembers(t.db, 1);
    const [account] = await t.db.insert(ledgerAccounts).values({ kind: "member_deposit", userId: member!.id, balance: 999_999 }).returning();
    await publish(t.db, { type: "deposit.changed", userId: member!.id, deposit: 999_999 });
    expect(await earnedIds(t.db, member!.id)).toEqual([]);
    expect((await listAchievementStatus(t.db, member!.id)).find((s) => s.id === "deposit_10000")).toMatchObject({
      progress: { current: 9_999, target: 10_000 },
    });
    await t.db.update(ledgerAccounts).set({ balance: 1_000_000 }).where(eq(ledgerAccounts.id, account!.id));
    await publish(t.db, { type: "deposit.changed", userId: member!.id, deposit: 1_000_000 });
    expect(await earnedIds(t.db, member!.id)).toEqual(["deposit_10000"]);
  });

  it("grants each achievement once under concurrent events", async () => {
    const [author] = await insertMembers(t.db, 1, { verified: true });
    const created = await insertPosts(t.db, author!.id, 10);
    for (const p of created) eventBus(t.db).publish({ type: "post.created", postId: p.id, authorId: author!.id, mentionedUserIds: [] });
    await Promise.all([evaluateAchievements(t.db, author!.id), evaluateAchievements(t.db, author!.id), eventBus(t.db).drain()]);
    const [rows] = await t.db.select({ value: count() }).from(userAchievements).where(eq(userAchievements.userId, author!.id));
    expect(rows!.value).toBe(3);
    expect(await earnedIds(t.db, author!.id)).toEqual(["first_post", "posts_10", "verified"]);
  });

  it("lists earned achievements newest first and every achievement with its state and progress", async () => {
    const [member] = await insertMembers(t.db, 1);
    await insertPosts(t.db, member!.id, 3);
    await t.db.insert(userAchievements).values([
      { userId: member!.id, achievementId: "first_post", earnedAt: new Date("2025-01-10T10:00:00Z") },
      { userId: member!.id, achievementId: "year_on_site", earnedAt: new Date("2025-03-01T10:00:00Z") },
      { userId: member!.id, achievementId: "retired_badge", earnedAt: new Date("2025-04-01T10:00:00Z") },
    ]);
    expect(await listUserAchievements(t.db, member!.id)).toEqual([
      { id: "year_on_site", title: "Год с нами", description: "Провести на сайте год", icon: "cake", earnedAt: "2025-03-01T10:00:00.000Z" },
      { id: "first_post", title: "Первый пост", description: "Опубликовать первый пост", icon: "pen-line", earnedAt: "2025-01-10T10:00:00.000Z" },
    ]);
    const status = await listAchievementStatus(t.db, member!.id);
    expect(status.map((s) => s.id)).toEqual(ACHIEVEMENTS.map((a) => a.id));
    expect(status.find((s) => s.id === "first_post")).toMatchObject({ earnedAt: "2025-01-10T10:00:00.000Z", progress: null });
    expect(status.find((s) => s.id === "posts_10")).toMatchObject({ earnedAt: null, progress: { current: 3, target: 10 } });
    expect(status.find((s) => s.id === "likes_100")).toMatchObject({ earnedAt: null, progress: { current: 0, target: 100 } });
    expect(status.find((s) => s.id === "verified")).toMatchObject({ earnedAt: null, progress: null });

    expect(await listUserAchievements(t.db, 2_000_000_000)).toEqual([]);
    expect(await listUserAchievements(t.db, Number.NaN)).toEqual([]);
    expect(await evaluateAchievements(t.db, 2_000_000_000)).toEqual([]);
    expect((await listAchievementStatus(t.db, 2_000_000_000)).every((s) => s.earnedAt === null)).toBe(true);
  });

  it("evaluates a member in one query (two when granting), however much they have done", async () => {
    const [busy] = await insertMembers(t.db, 1, { verified: true });
    await insertPosts(t.db, busy!.id, 150);
    const first = await countQueries(t.db, () => evaluateAchievements(t.db, busy!.id));
    expect(first.result.sort()).toEqual(["first_post", "posts_10", "posts_100", "verified"]);
    expect(first.queries).toBe(2);
    const again = await countQueries(t.db, () => evaluateAchievements(t.db, busy!.id));
    expect(again).toEqual({ result: [], queries: 1 });
    expect((await countQueries(t.db, () => listUserAchievements(t.db, busy!.id))).queries).toBe(1);
    expect((await countQueries(t.db, () => listAchievementStatus(t.db, busy!.id))).queries).toBe(2);
  });

  it("a later issue adds an achievement with its own counter and event by one definition", async () => {
    const followers = countOf("followers", sql`(select count(*)::int from ${follows} where ${follows.followeeId} = ${users.id})`);
    const popular: AchievementDefinition = {
      id: "followers_2",
      title: "Есть подписчики",
      description: "Получить двух подписчиков",
      icon: "sparkles",
      rule: atLeast(followers, 2),
      triggers: [on("follow.created", (e) => [e.followeeId])],
    };
    const definitions = [...ACHIEVEMENTS, popular];
    const unsubscribe = registerAchievementRules(t.db, definitions);
    try {
      const [star, fan1, fan2] = await insertMembers(t.db, 3);
      for (const fan of [fan1!, fan2!]) {
        await t.db.insert(follows).values({ followerId: fan.id, followeeId: star!.id });
        await publish(t.db, { type: "follow.created", followerId: fan.id, followeeId: star!.id });
        const expected = fan === fan1 ? [] : ["followers_2"];
        expect(await earnedIds(t.db, star!.id)).toEqual(expected);
      }
      expect((await listUserAchievements(t.db, star!.id, definitions))[0]).toMatchObject({ id: "followers_2", title: "Есть подписчики" });
      // The standard list does not know the id and leaves it out.
      expect(await listUserAchievements(t.db, star!.id)).toEqual([]);
    } finally {
      unsubscribe();
    }
  });
});
