/**
 * Newest-first lists read their page from an index, never by sorting the whole table: on the
 * million-post set (bench/data) a sort of every post costs ~1 s per home page. A `desc()` order is
 * DESC NULLS FIRST in PostgreSQL, and an index built DESC NULLS LAST cannot serve it even on a
 * NOT NULL column, so the indexes are built DESC NULLS FIRST (drizzle/0017). The plans are read
 * with EXPLAIN on the queries the lists build.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { executeRows } from "~/db/client.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, notifications, posts } from "~/db/schema";
import { getPublicConversationId } from "~/domain/conversations/conversations.server";
import { newestMessagesFirst } from "~/domain/conversations/access.server";
import { publicPostSql } from "~/domain/moderation/visibility.server";
import { listPosts } from "./posts.server";
import { COUNT_CAP } from "~/lib/pagination";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/moderation";
import { countQueries } from "../../../tests/setup/query-count";

let t: TestDatabase;
let authorId: number;
let conversationId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  authorId = (await makeMember(t.db)).id;
  conversationId = await getPublicConversationId(t.db);
  // Enough rows over two years for the planner to prefer an index for one page.
  await t.db.execute(sql`insert into posts (author_id, category_id, title, body, created_at)
    select ${authorId}, 1 + i % 9, 'Сгенерированный пост ' || i, 'Текст', timestamptz '2028-01-01 00:00:00+00' + i * interval '4 hours' from generate_series(1, 5000) i`);
  // Messages spread over fifty groups and the public chat, newest of each interleaved, as in a live community.
  await t.db.execute(sql`insert into conversations (kind, name, owner_id) select 'group', 'Группа ' || i, ${authorId} from generate_series(1, 50) i`);
  await t.db.execute(sql`insert into messages (conversation_id, author_id, body, created_at)
    select case when i % 51 = 0 then ${conversationId} else (select min(id) from conversations where kind = 'group') + i % 51 - 1 end,
      ${authorId}, 'Сообщение ' || i, timestamptz '2028-01-01 00:00:00+00' + i * interval '4 hours' from generate_series(1, 5100) i`);
  await t.db.execute(sql`insert into notifications (recipient_id, sender_id, type, updated_at)
    select ${authorId}, ${authorId}, 'POST_NEW', timestamptz '2028-01-01 00:00:00+00' + i * interval '4 hours' from generate_series(1, 5000) i`);
  for (const table of ["posts", "messages", "notifications"]) await t.db.execute(sql.raw(`analyze ${table}`));
});

afterAll(async () => {
  await t?.close();
});

/** The EXPLAIN text of `query` (postgres.js returns an array of rows, PGlite `{rows}`). */
async function planOf(query: { getSQL(): SQL }): Promise<string> {
  const rows = await executeRows(t.db, sql`explain ${query.getSQL()}`);
  return rows.map((row) => String(Object.values(row)[0])).join("\n");
}

describe(`newest-first pages on ${engine}`, () => {
  it("the home feed and a category's feed take their page from the created_at indexes, without sorting every post", async () => {
    const feed = t.db.select({ id: posts.id }).from(posts).where(publicPostSql).orderBy(desc(posts.createdAt), desc(posts.id)).limit(20);
    const feedPlan = await planOf(feed);
    expect(feedPlan, feedPlan).toContain("Index Scan using posts_created_at_idx");
    expect(feedPlan, feedPlan).not.toMatch(/Seq Scan on posts/);

    const category = t.db
      .select({ id: posts.id })
      .from(posts)
      .where(and(publicPostSql, eq(posts.categoryId, 3)))
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(20);
    const categoryPlan = await planOf(category);
    expect(categoryPlan, categoryPlan).toMatch(/Index Scan using posts_(category_)?created/);
    expect(categoryPlan, categoryPlan).not.toMatch(/Seq Scan on posts/);
  });

  it("a conversation's newest messages and a member's newest notifications are read from their indexes", async () => {
    const latest = t.db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId)).orderBy(newestMessagesFirst).limit(50);
    const messagesPlan = await planOf(latest);
    expect(messagesPlan, messagesPlan).toContain("messages_conversation_id_idx");
    expect(messagesPlan, messagesPlan).not.toMatch(/messages_pkey|Seq Scan on messages/);

    const bell = t.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.recipientId, authorId))
      .orderBy(desc(notifications.updatedAt), desc(notifications.id))
      .limit(20);
    const bellPlan = await planOf(bell);
    expect(bellPlan, bellPlan).toContain("notifications_recipient_updated_idx");
    expect(bellPlan, bellPlan).not.toMatch(/Sort|Seq Scan on notifications/);
  });

  it("a feed counts up to 10 000 posts, then says there are more instead of counting a million", async () => {
    const exact = await listPosts(t.db, { reader: null, pinnedFirst: true }, { page: 1, perPage: 10 });
    expect([exact.total, exact.more]).toEqual([5000, undefined]);

    await t.db.execute(sql`insert into posts (author_id, category_id, title, body, created_at)
      select ${authorId}, 3, 'Ещё пост ' || i, 'Текст', timestamptz '2031-01-01 00:00:00+00' + i * interval '1 minute' from generate_series(1, ${COUNT_CAP - 4999}) i`);
    const capped = await listPosts(t.db, { reader: null, pinnedFirst: true }, { page: 1, perPage: 10 });
    expect([capped.total, capped.more, capped.totalPages]).toEqual([COUNT_CAP, true, COUNT_CAP / 10]);
    expect(capped.items[0]?.title).toBe(`Ещё пост ${COUNT_CAP - 4999}`);
    // A list under the cap still counts exactly: the author's posts in category 3.
    const category = await listPosts(t.db, { reader: null, categoryId: 3, authorId }, { page: 1, perPage: 10 });
    expect([category.total, category.more]).toEqual([556 + COUNT_CAP - 4999, undefined]);
  });

  it("a moderator counted past the cap by hidden posts leaves a visitor's count exact; past it for visitors, it is past it for all", async () => {
    const writer = (await makeMember(t.db)).id;
    await t.db.execute(sql`insert into posts (author_id, category_id, title, body, created_at, hidden_at)
      select ${writer}, 2, 'Пост ' || i, 'Текст', timestamptz '2032-01-01 00:00:00+00' + i * interval '1 minute',
        case when i <= 5 then timestamptz '2032-06-01 00:00:00+00' end from generate_series(1, ${COUNT_CAP + 4}) i`);
    const moderator = { id: authorId, role: "moderator" as const };
    const forModerator = await listPosts(t.db, { reader: moderator, authorId: writer }, { page: 1, perPage: 10 });
    expect(forModerator.more).toBe(true);
    const forVisitor = await listPosts(t.db, { reader: null, authorId: writer }, { page: 1, perPage: 10 });
    expect([forVisitor.total, forVisitor.more]).toEqual([COUNT_CAP - 1, undefined]);

    await t.db.execute(
      sql`insert into posts (author_id, category_id, title, body) select ${writer}, 2, 'Новый пост ' || i, 'Текст' from generate_series(1, 2) i`,
    );
    const first = await listPosts(t.db, { reader: null, authorId: writer }, { page: 1, perPage: 10 });
    expect([first.total, first.more]).toEqual([COUNT_CAP, true]);
    // Known to be past the cap, the list is not counted again for anyone: one query, its rows.
    for (const reader of [null, { id: writer, role: "member" as const }, moderator]) {
      const { result, queries } = await countQueries(t.db, () => listPosts(t.db, { reader, authorId: writer }, { page: 2, perPage: 10 }));
      expect([result.total, result.more, result.items.length, queries], `reader ${reader?.role ?? "visitor"}`).toEqual([COUNT_CAP, true, 10, 1]);
    }
  });
});
