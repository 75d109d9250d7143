import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { countQueries } from "../../../tests/setup/query-count";
import type { Db } from "~/db/client.server";
import { isNotNull } from "drizzle-orm";
import { commentLikes, comments, deals, ledgerAccounts, postLikes, posts, users, wallPostLikes, wallPosts } from "~/db/schema";
import { getLeaderboard, LEADERBOARD_SIZE, leaderboardTabs, parseLeaderboardQuery } from "./leaderboard.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});
beforeEach(async () => {
  // Each test ranks its own community (deals and deposit accounts are inserted directly, without transfers).
  await t.db.delete(deals);
  await t.db.delete(ledgerAccounts).where(isNotNull(ledgerAccounts.userId));
  await t.db.delete(users);
});

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-06-15T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

async function insertMembers(db: Db, names: string[], values: Partial<typeof users.$inferInsert> = {}) {
  const rows = await db
    .insert(users)
    .values(names.map((username) => ({ username, email: `${username}@example.test`, ...values })))
    .returning();
  return Object.fromEntries(rows.map((r) => [r.username, r]));
}

async function insertPosts(db: Db, authorId: number, createdAt: Date[]) {
  if (createdAt.length === 0) return [];
  return db
    .insert(posts)
    .values(createdAt.map((at, i) => ({ authorId, title: `Пост ${i + 1}`, body: "Текст", categoryId: 7, createdAt: at })))
    .returning({ id: posts.id });
}

const names = (board: Awaited<ReturnType<typeof getLeaderboard>>) => board.entries.map((e) => e.member.username);
const figures = (board: Awaited<ReturnType<typeof getLeaderboard>>) => board.entries.map((e) => e.score);

describe(`leaderboard on ${engine}`, () => {
  it("ranks reputation — likes on posts, comments and wall posts — per week, month and all time", async () => {
    const m = await insertMembers(t.db, ["alina", "boris", "vera", "fan1", "fan2", "fan3", "fan4"]);
    const fans = [m.fan1!, m.fan2!, m.fan3!, m.fan4!];
    // alina: 3 post likes 2 days ago, 1 comment like 20 days ago → week 3, month 4, all 4.
    const [alinaPost] = await insertPosts(t.db, m.alina!.id, [daysAgo(3)]);
    await t.db.insert(postLikes).values(fans.slice(0, 3).map((f) => ({ postId: alinaPost!.id, userId: f.id, receiverId: m.alina!.id, createdAt: daysAgo(2) })));
    const [alinaComment] = await t.db.insert(comments).values({ postId: alinaPost!.id, authorId: m.alina!.id, body: "Ответ" }).returning();
    await t.db.insert(commentLikes).values({ commentId: alinaComment!.id, userId: m.fan4!.id, receiverId: m.alina!.id, createdAt: daysAgo(20) });
    // boris: 1 wall-post like today (week 1), 4 post likes 8 days ago (month 5), 4 more 200 days ago (all 9).
    const [borisWall] = await t.db.insert(wallPosts).values({ ownerId: m.vera!.id, authorId: m.boris!.id, body: "Привет" }).returning();
    await t.db.insert(wallPostLikes).values({ wallPostId: borisWall!.id, userId: m.vera!.id, receiverId: m.boris!.id, createdAt: daysAgo(0.1) });
    const borisPosts = await insertPosts(t.db, m.boris!.id, [daysAgo(300), daysAgo(300)]);
    await t.db
      .insert(postLikes)
      .values([
        ...fans.map((f) => ({ postId: borisPosts[0]!.id, userId: f.id, receiverId: m.boris!.id, createdAt: daysAgo(8) })),
        ...fans.map((f) => ({ postId: borisPosts[1]!.id, userId: f.id, receiverId: m.boris!.id, createdAt: daysAgo(200) })),
      ]);

    const week = await getLeaderboard(t.db, { by: "reputation", period: "week" }, NOW);
    expect(names(week)).toEqual(["alina", "boris"]);
    expect(figures(week)).toEqual([3, 1]);
    expect(week.entries.map((e) => e.rank)).toEqual([1, 2]);
    expect(week.entries[0]!.scoreText).toBe("3 лайка");

    const month = await getLeaderboard(t.db, { by: "reputation", period: "month" }, NOW);
    expect(names(month)).toEqual(["boris", "alina"]);
    expect(figures(month)).toEqual([5, 4]);

    const all = await getLeaderboard(t.db, { by: "reputation", period: "all" }, NOW);
    expect(names(all)).toEqual(["boris", "alina"]);
    expect(figures(all)).toEqual([9, 4]);
    expect(all.entries[0]).toMatchObject({ scoreText: "9 лайков", member: { id: m.boris!.id, ranks: [] } });
    // Members without likes in the period are not ranked.
    expect(names(all)).not.toContain("vera");
  });

  it("ranks posts per period; posts older than a week are not in «week»", async () => {
    const m = await insertMembers(t.db, ["gleb", "dina", "egor"]);
    await insertPosts(t.db, m.gleb!.id, [daysAgo(1), daysAgo(8), daysAgo(9), daysAgo(40)]);
    await insertPosts(t.db, m.dina!.id, [daysAgo(2), daysAgo(6.9)]);
    await insertPosts(t.db, m.egor!.id, [daysAgo(7.01), daysAgo(29), daysAgo(400), daysAgo(500), daysAgo(600)]);

    const week = await getLeaderboard(t.db, { by: "posts", period: "week" }, NOW);
    expect(names(week)).toEqual(["dina", "gleb"]);
    expect(figures(week)).toEqual([2, 1]);
    expect(week.entries[0]!.scoreText).toBe("2 публикации");
    const month = await getLeaderboard(t.db, { by: "posts", period: "month" }, NOW);
    expect(names(month)).toEqual(["gleb", "egor", "dina"]); // egor reached 2 before dina
    expect(figures(month)).toEqual([3, 2, 2]);
    const all = await getLeaderboard(t.db, { by: "posts", period: "all" }, NOW);
    expect(names(all)).toEqual(["egor", "gleb", "dina"]);
    expect(figures(all)).toEqual([5, 4, 2]);
  });

  it("breaks ties deterministically: who reached the score first, then the older account", async () => {
    const m = await insertMembers(t.db, ["first", "second", "third", "fourth"]);
    // second reached 2 posts before first did; third and fourth reached 1 at the same instant.
    await insertPosts(t.db, m.first!.id, [daysAgo(3), daysAgo(1)]);
    await insertPosts(t.db, m.second!.id, [daysAgo(4), daysAgo(2)]);
    await insertPosts(t.db, m.fourth!.id, [daysAgo(5)]);
    await insertPosts(t.db, m.third!.id, [daysAgo(5)]);
    for (let i = 0; i < 3; i++) {
      const board = await getLeaderboard(t.db, { by: "posts", period: "all" }, NOW);
      expect(names(board)).toEqual(["second", "first", "third", "fourth"]);
    }
  });

  it("shows the top 50 with names, avatars and ranks in one query, however many members score", async () => {
    const many = await insertMembers(
      t.db,
      Array.from({ length: 60 }, (_, i) => `member_${String(i).padStart(2, "0")}`),
      { verified: true, image: "/uploads/avatars/a.svg" },
    );
    const members = Object.values(many).sort((a, b) => a.username.localeCompare(b.username));
    await t.db
      .insert(posts)
      .values(
        members.flatMap((member, i) =>
          Array.from({ length: i + 1 }, () => ({ authorId: member.id, title: "Пост", body: "Текст", categoryId: 7, createdAt: daysAgo(1) })),
        ),
      );
    const { result: board, queries } = await countQueries(t.db, () => getLeaderboard(t.db, { by: "posts", period: "week" }, NOW));
    expect(queries).toBe(1);
    expect(board.entries).toHaveLength(LEADERBOARD_SIZE);
    expect(board.entries[0]).toMatchObject({
      rank: 1,
      score: 60,
      member: { username: "member_59", image: "/uploads/avatars/a.svg", ranks: ["VERIFIED"] },
    });
    expect(board.entries.at(-1)).toMatchObject({ rank: 50, score: 11, member: { username: "member_10" } });
    expect((await countQueries(t.db, () => getLeaderboard(t.db, { by: "reputation", period: "all" }, NOW))).queries).toBe(1);
  });

  it("ranks completed deals for both parties per period; open, cancelled and refunded deals do not count", async () => {
    const m = await insertMembers(t.db, ["seller", "buyer", "other"]);
    const deal = (state: "completed" | "funded" | "cancelled" | "refunded", closedDaysAgo: number | null, buyerId = m.buyer!.id) => ({
      buyerId,
      sellerId: m.seller!.id,
      createdBy: m.seller!.id,
      amount: 100_000,
      fee: 5_000,
      feePayer: "buyer" as const,
      buyerFee: 5_000,
      sellerFee: 0,
      description: "Аккаунт",
      deadline: NOW,
      state,
      closedAt: closedDaysAgo === null ? null : daysAgo(closedDaysAgo),
    });
    await t.db
      .insert(deals)
      .values([
        deal("completed", 1),
        deal("completed", 10, m.other!.id),
        deal("completed", 100),
        deal("funded", null),
        deal("cancelled", 1),
        deal("refunded", 2),
      ]);
    const week = await getLeaderboard(t.db, { by: "deals", period: "week" }, NOW);
    expect(week.entries.map((e) => [e.member.username, e.scoreText])).toEqual([
      ["seller", "1 сделка"],
      ["buyer", "1 сделка"],
    ]);
    const all = await getLeaderboard(t.db, { by: "deals", period: "all" }, NOW);
    expect(names(all)).toEqual(["seller", "buyer", "other"]);
    expect(figures(all)).toEqual([3, 2, 1]);
  });

  it("ranks the deposit as it stands, whatever the period, shown in roubles", async () => {
    const m = await insertMembers(t.db, ["rich", "modest", "empty"]);
    await t.db.insert(ledgerAccounts).values([
      { kind: "member_deposit", userId: m.modest!.id, balance: 1_000_050 },
      { kind: "member_deposit", userId: m.rich!.id, balance: 2_500_000 },
      { kind: "member_deposit", userId: m.empty!.id, balance: 0 },
      { kind: "member_available", userId: m.empty!.id, balance: 9_000_000 },
    ]);
    const board = await getLeaderboard(t.db, { by: "deposit", period: "week" }, NOW);
    expect(board.period).toBe("all");
    expect(board.entries.map((e) => [e.member.username, e.scoreText])).toEqual([
      ["rich", "25\u00a0000,00\u00a0₽"],
      ["modest", "10\u00a0000,50\u00a0₽"],
    ]);
  });
});

describe("leaderboard query", () => {
  it("reads by and period, falling back to reputation and all time for anything else", () => {
    expect(parseLeaderboardQuery(new URLSearchParams("by=posts&period=week"))).toEqual({ by: "posts", period: "week" });
    expect(parseLeaderboardQuery(new URLSearchParams("by=reputation&period=month"))).toEqual({ by: "reputation", period: "month" });
    expect(parseLeaderboardQuery(new URLSearchParams(""))).toEqual({ by: "reputation", period: "all" });
    expect(parseLeaderboardQuery(new URLSearchParams("by=money&period=decade"))).toEqual({ by: "reputation", period: "all" });
    expect(leaderboardTabs().metrics.map((m) => m.label)).toEqual(["Репутация", "Публикации", "Сделки", "Депозит"]);
    expect(leaderboardTabs().periods.map((p) => p.label)).toEqual(["За неделю", "За месяц", "За всё время"]);
  });
});
