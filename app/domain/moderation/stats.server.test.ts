/**
 * /admin/stats (docs/product/moderation.md#stats): per-day series cut at Moscow midnight, the
 * daily rollup that freezes finished days, and the query plans that keep it fast on a million
 * posts — one index range scan on created_at, never a sequential scan of the table.
 */
import { eq, sql } from "drizzle-orm";
import { executeRows } from "~/db/client.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, messages, posts, statsDaily, users } from "~/db/schema";
import { getPublicConversationId } from "~/domain/conversations/conversations.server";
import { applyDealAction, createDeal } from "~/domain/deals/deals.server";
import { topUp, transferToMember } from "~/domain/ledger/wallet.server";
import type { UserRow } from "~/domain/users/users.server";
import { AppError } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost } from "../../../tests/setup/factories";
import { makeMember } from "../../../tests/setup/moderation";
import { getDailyStats, metricSql, moscowDay, startOfMoscowDay } from "./stats.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let keys = 0;
const key = () => `stats-${++keys}`;
/** A fixed "now" far from the real clock, so only the rows this suite dates count. */
const NOW = new Date("2030-03-15T12:00:00Z");
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await t.destroy();
});

/** Rows of a raw query (postgres.js returns an array, PGlite `{rows}`). */
async function rowsOf(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return executeRows(t.db, query);
}

async function dated<T extends { createdAt: Date }>(
  table: typeof posts | typeof comments | typeof messages | typeof users,
  id: number,
  createdAt: Date,
): Promise<void> {
  await t.db
    .update(table as typeof posts)
    .set({ createdAt } as Partial<T>)
    .where(eq((table as typeof posts).id, id));
}

describe(`daily statistics on ${engine}`, () => {
  it("counts each metric per Moscow day for the last 7 days, today included, volumes in kopecks", async () => {
    const author = await makeMember(t.db);
    await dated(users, author.id, at("2030-03-13T09:00:00Z"));
    // 20:59 UTC is 23:59 in Moscow (Mar 13); 21:00 UTC is already Mar 14 there.
    for (const iso of ["2030-03-13T20:59:00Z", "2030-03-13T21:00:00Z", "2030-03-15T08:00:00Z", "2030-03-15T09:00:00Z", "2030-03-01T10:00:00Z"]) {
      await dated(posts, await makePost(t.db, author), at(iso));
    }
    const postId = await makePost(t.db, author);
    await dated(posts, postId, at("2030-02-01T10:00:00Z"));
    const [comment] = await t.db
      .insert(comments)
      .values({ postId, authorId: author.id, body: "Коммент", createdAt: at("2030-03-12T10:00:00Z") })
      .returning();
    const publicId = await getPublicConversationId(t.db);
    await t.db.insert(messages).values([
      { conversationId: publicId, authorId: author.id, body: "Раз", createdAt: at("2030-03-14T10:00:00Z") },
      { conversationId: publicId, authorId: author.id, body: "Два", createdAt: at("2030-03-14T11:00:00Z") },
    ]);
    expect(comment).toBeDefined();

    const [buyer, seller] = [await makeMember(t.db), await makeMember(t.db)];
    await topUp(t.db, admin.id, buyer.id, 1_000_000, key());
    const deadline = at("2030-04-01T00:00:00Z");
    const created = at("2030-03-10T10:00:00Z");
    let deal = await createDeal(
      t.db,
      seller.id,
      { counterparty: buyer.id, role: "seller", amount: 250_000, description: "Аккаунт", deadline, feePayer: "buyer" },
      key(),
      created,
    );
    for (const [who, action] of [
      [buyer, "accept"],
      [buyer, "fund"],
      [seller, "deliver"],
    ] as const)
      deal = await applyDealAction(t.db, who.id, deal.id, action, {}, key(), created);
    await applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, key(), at("2030-03-14T12:00:00Z"));
    await createDeal(
      t.db,
      buyer.id,
      { counterparty: seller.id, role: "buyer", amount: 10_000, description: "Ещё", deadline, feePayer: "split" },
      key(),
      at("2030-03-15T10:00:00Z"),
    );

    const stats = await getDailyStats(t.db, admin.id, 7, NOW);
    expect([stats.days, stats.from, stats.to]).toEqual([7, "2030-03-09", "2030-03-15"]);
    const series = Object.fromEntries(stats.series.map((s) => [s.metric, s]));
    const days = ["2030-03-09", "2030-03-10", "2030-03-11", "2030-03-12", "2030-03-13", "2030-03-14", "2030-03-15"];
    expect(series.posts!.points).toEqual(days.map((day, i) => ({ day, value: [0, 0, 0, 0, 1, 1, 2][i] })));
    expect(series.posts).toMatchObject({ label: "Посты", unit: "count", total: 4 });
    expect(series.signups!.points.find((p) => p.day === "2030-03-13")!.value).toBe(1);
    expect(series.comments!.total).toBe(1);
    expect(series.messages!.points.find((p) => p.day === "2030-03-14")!.value).toBe(2);
    expect(series.deals_created!.points.filter((p) => p.value > 0)).toEqual([
      { day: "2030-03-10", value: 1 },
      { day: "2030-03-15", value: 1 },
    ]);
    expect(series.deals_completed!.points.find((p) => p.day === "2030-03-14")!.value).toBe(1);
    expect(series.deal_volume).toMatchObject({ unit: "kopecks", total: 250_000, label: "Объём сделок, ₽" });
  });

  it("freezes finished days in the rollup and counts only today live", async () => {
    const stored = await t.db.select().from(statsDaily).where(eq(statsDaily.metric, "posts"));
    expect(stored.map((r) => r.day).sort()).toEqual(["2030-03-09", "2030-03-10", "2030-03-11", "2030-03-12", "2030-03-13", "2030-03-14"]);
    const author = await makeMember(t.db);
    await dated(posts, await makePost(t.db, author), at("2030-03-14T10:00:00Z"));
    await dated(posts, await makePost(t.db, author), at("2030-03-15T11:00:00Z"));
    const again = await getDailyStats(t.db, admin.id, 7, NOW);
    const postsSeries = again.series.find((s) => s.metric === "posts")!;
    // Mar 14 was read from the rollup (still 1); today is counted live (now 3).
    expect(postsSeries.points.slice(-2)).toEqual([
      { day: "2030-03-14", value: 1 },
      { day: "2030-03-15", value: 3 },
    ]);
    const wider = await getDailyStats(t.db, admin.id, 30, NOW);
    expect(wider.series.find((s) => s.metric === "posts")!.points.find((p) => p.day === "2030-03-01")!.value).toBe(1);
  });

  it("counts today's transfer volume live", async () => {
    const [sender, recipient] = [await makeMember(t.db), await makeMember(t.db)];
    await topUp(t.db, admin.id, sender.id, 100_000, key());
    await transferToMember(t.db, sender.id, recipient.id, 12_345, {}, key());
    await transferToMember(t.db, sender.id, recipient.id, 5_000, { holdHours: 24 }, key());
    const today = await getDailyStats(t.db, admin.id, 7);
    expect(today.series.find((s) => s.metric === "transfer_volume")!.points.at(-1)).toEqual({ day: moscowDay(new Date()), value: 17_345 });
  });

  it("is for admins, for 7, 30 or 90 days", async () => {
    const refused = (run: () => Promise<unknown>) =>
      run().then(
        () => new AppError("not_refused", 200, "не отказано"),
        (e: unknown) => e as AppError,
      );
    const moderatorError = await refused(() => getDailyStats(t.db, moderator.id, 7));
    expect([moderatorError.status, moderatorError.code]).toEqual([403, "not_admin"]);
    const bad = await refused(() => getDailyStats(t.db, admin.id, 14));
    expect([bad.status, bad.code, bad.message]).toEqual([400, "invalid_period", "Выберите период: 7, 30 или 90 дней"]);
  });

  it("reads a day of posts, comments and messages through the created_at indexes, never a sequential scan", async () => {
    const author = await makeMember(t.db);
    const postId = await makePost(t.db, author);
    const publicId = await getPublicConversationId(t.db);
    // 4 000 rows over ~2 years per table: enough for the planner to prefer the index for one day.
    await t.db.execute(sql`insert into posts (author_id, category_id, title, body, created_at)
      select ${author.id}, 7, 'Сгенерированный пост ' || i, 'Текст', timestamptz '2028-01-01 00:00:00+00' + i * interval '4 hours' from generate_series(1, 4000) i`);
    await t.db.execute(sql`insert into comments (post_id, author_id, body, created_at)
      select ${postId}, ${author.id}, 'Коммент ' || i, timestamptz '2028-01-01 00:00:00+00' + i * interval '4 hours' from generate_series(1, 4000) i`);
    await t.db.execute(sql`insert into messages (conversation_id, author_id, body, created_at)
      select ${publicId}, ${author.id}, 'Сообщение ' || i, timestamptz '2028-01-01 00:00:00+00' + i * interval '4 hours' from generate_series(1, 4000) i`);
    await t.db.execute(sql`analyze posts`);
    await t.db.execute(sql`analyze comments`);
    await t.db.execute(sql`analyze messages`);

    const day = "2028-06-01";
    const [from, to] = [startOfMoscowDay(day), startOfMoscowDay("2028-06-02")];
    const indexOf = { posts: "posts_created_at_idx", comments: "comments_created_at_idx", messages: "messages_created_at_idx" } as const;
    for (const metric of ["posts", "comments", "messages"] as const) {
      const plan = (await rowsOf(sql`explain ${metricSql(metric, from, to)}`)).map((row) => String(Object.values(row)[0])).join("\n");
      expect(plan, `${metric}:\n${plan}`).toContain(indexOf[metric]);
      expect(plan, `${metric}:\n${plan}`).not.toMatch(new RegExp(`Seq Scan on ${metric}\\b`));
    }
  });
});
