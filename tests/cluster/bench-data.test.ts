/**
 * The bench data generator (npm run bench:data, issue 12) with tiny sizes into a fresh
 * PostgreSQL database: the rows are what the app itself would have written — exact sizes,
 * counters equal to their rows, the app's schema with every key and foreign key checked,
 * times in order — and the app's own functions read them (the 50-comment post, search, sign-in,
 * unread counts, a new post after the generated ones). Runs only in the PostgreSQL step.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { listPostComments } from "~/domain/comments/comments.server";
import { getUnreadRecord } from "~/domain/conversations/messages.server";
import { countUnreadNotifications, listNotifications } from "~/domain/notifications/notifications.server";
import { createPost, getPost } from "~/domain/posts/posts.server";
import { PostInputSchema } from "~/domain/posts/schemas";
import { CANDIDATES, searchPosts } from "~/domain/search/search.server";
import { verifyCredentials } from "~/domain/users/users.server";
import { markdownExcerpt } from "~/lib/markdown.server";
import { FILLED_TABLES, generateBenchData } from "../../bench/data/generator";
import { databaseUrl, readBenchMeta, type BenchMeta } from "../../bench/data/meta";
import type { BenchSizes } from "../../bench/data/model";
import { readKeys } from "../../bench/data/schema";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error("the cluster suite needs TEST_DATABASE_URL (a PostgreSQL server)");

const SIZES: BenchSizes = {
  members: 200,
  posts: 1500,
  comments: 6000,
  postLikes: 4000,
  commentLikes: 2000,
  postViews: 4000,
  wallPosts: 400,
  wallLikes: 200,
  follows: 2000,
  bookmarks: 500,
  blocks: 10,
  personalConversations: 100,
  groups: 8,
  messages: 2000,
};

describe("bench data generator (PostgreSQL)", () => {
  const name = `bench_data_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const metaDir = mkdtempSync(path.join(tmpdir(), "bench-data-meta-"));
  const url = databaseUrl(serverUrl, name);
  let meta: BenchMeta;
  let handle: DatabaseHandle | undefined;
  let sql: postgres.Sql | undefined;
  const numberOf = async (query: string) => Number((await sql!.unsafe<{ n: string }[]>(query))[0]!.n);

  beforeAll(async () => {
    meta = await generateBenchData({ serverUrl, database: name, sizes: SIZES, log: () => {}, metaDir });
    handle = await openDatabase({ url, maxConnections: 3 });
    sql = postgres(url, { max: 1, onnotice: () => {} });
  }, 180_000);

  afterAll(async () => {
    await sql?.end();
    await handle?.close();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`drop database if exists "${name}__building" with (force)`);
    await admin.end();
    rmSync(metaDir, { recursive: true, force: true });
  });

  it("writes exactly the sizes asked for", async () => {
    const exact: [string, number][] = [
      ["users", SIZES.members],
      ["posts", SIZES.posts],
      ["comments", SIZES.comments],
      ["post_likes", SIZES.postLikes],
      ["post_views", SIZES.postViews],
      ["bookmarks", SIZES.bookmarks],
      ["blocks", SIZES.blocks],
      ["wall_posts", SIZES.wallPosts],
      ["messages", SIZES.messages],
    ];
    for (const [table, rows] of exact) expect({ table, rows: await numberOf(`select count(*) as n from ${table}`) }).toEqual({ table, rows });
    expect(await numberOf(`select count(*) as n from conversations where kind = 'personal'`)).toBe(SIZES.personalConversations);
    expect(await numberOf(`select count(*) as n from conversations where kind = 'group'`)).toBe(SIZES.groups);
    // Blocking removes the follows between the two members, as blockMember does.
    const follows = await numberOf(`select count(*) as n from follows`);
    expect(follows).toBeLessThanOrEqual(SIZES.follows);
    expect(follows).toBeGreaterThan(SIZES.follows * 0.97);
    const commentLikes = await numberOf(`select count(*) as n from comment_likes`);
    expect(commentLikes).toBeGreaterThan(SIZES.commentLikes * 0.5);
    expect(commentLikes).toBeLessThan(SIZES.commentLikes * 1.5);
    expect(meta.rows).toMatchObject({ users: SIZES.members, posts: SIZES.posts, comments: SIZES.comments, follows });
  });

  it("keeps every counter equal to its rows", async () => {
    const drift = {
      postLikes: `select count(*) as n from posts p where like_count <> (select count(*) from post_likes l where l.post_id = p.id)`,
      postComments: `select count(*) as n from posts p where comment_count <> (select count(*) from comments c where c.post_id = p.id and c.deleted_at is null)`,
      postViews: `select count(*) as n from posts p where views <> (select count(*) from post_views v where v.post_id = p.id)`,
      commentLikes: `select count(*) as n from comments c where like_count <> (select count(*) from comment_likes l where l.comment_id = c.id)`,
      wallLikes: `select count(*) as n from wall_posts w where like_count <> (select count(*) from wall_post_likes l where l.wall_post_id = w.id)`,
    };
    for (const [counter, query] of Object.entries(drift)) expect({ counter, drifted: await numberOf(query) }).toEqual({ counter, drifted: 0 });
    expect(await numberOf(`select count(*) as n from comments where deleted_at is not null`)).toBeGreaterThan(0);
    expect(await numberOf(`select count(*) as n from post_likes`)).toBe(await numberOf(`select sum(like_count) as n from posts`));
  });

  it("has the app's schema exactly, every key and foreign key checked", async () => {
    const fresh = `${name}_fresh`;
    await admin.unsafe(`create database "${fresh}"`);
    try {
      const migrated = await openDatabase({ url: databaseUrl(serverUrl, fresh), maxConnections: 1 });
      await migrated.close();
      const freshSql = postgres(databaseUrl(serverUrl, fresh), { max: 1, onnotice: () => {} });
      const expected = await readKeys(freshSql, FILLED_TABLES);
      await freshSql.end();
      expect(await readKeys(sql!, FILLED_TABLES)).toEqual(expected);
    } finally {
      await admin.unsafe(`drop database if exists "${fresh}" with (force)`);
    }
    expect(await numberOf(`select count(*) as n from pg_constraint where connamespace = 'public'::regnamespace and not convalidated`)).toBe(0);
    expect(await numberOf(`select count(*) as n from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`)).toBeGreaterThan(50);
    expect(await numberOf(`select count(*) as n from pg_tables where schemaname = 'public' and tablename like 'bench\\_%' and tablename <> 'bench_meta'`)).toBe(
      0,
    );
  });

  it("writes posts as createPost does: the excerpt of the body, a search vector, ids in time order", async () => {
    const posts = await sql!<{ body: string; excerpt: string }[]>`select body, excerpt from posts order by id`;
    const wrong = posts.filter((p) => p.excerpt !== markdownExcerpt(p.body));
    expect(wrong.length).toBe(0);
    expect(await numberOf(`select count(*) as n from posts where search_vector is null`)).toBe(0);
    expect(await numberOf(`select count(*) as n from (select created_at < lag(created_at) over (order by id) as back from posts) x where back`)).toBe(0);
    expect(await numberOf(`select count(*) as n from (select created_at < lag(created_at) over (order by id) as back from comments) x where back`)).toBe(0);
    expect(await numberOf(`select count(*) as n from (select created_at < lag(created_at) over (order by id) as back from messages) x where back`)).toBe(0);
    expect(await numberOf(`select count(distinct kind) as n from posts`)).toBe(2);
    expect(await numberOf(`select count(distinct category_id) as n from posts`)).toBe(9);
  });

  it("keeps time and membership in order: nobody acts before joining, replies follow their parents", async () => {
    const violations = {
      postBeforeAuthor: `select count(*) as n from posts p join users u on u.id = p.author_id where p.created_at < u.created_at`,
      commentBeforePost: `select count(*) as n from comments c join posts p on p.id = c.post_id where c.created_at <= p.created_at`,
      commentBeforeAuthor: `select count(*) as n from comments c join users u on u.id = c.author_id where c.created_at < u.created_at`,
      replyElsewhere: `select count(*) as n from comments c join comments r on r.id = c.parent_id where r.post_id <> c.post_id or r.created_at > c.created_at`,
      deletedBeforeReply: `select count(*) as n from comments c join comments r on r.id = c.parent_id where r.deleted_at < c.created_at`,
      deletedByStranger: `select count(*) as n from comments c join users u on u.id = c.deleted_by_id where c.deleted_at is not null and u.id <> c.author_id and u.role = 'member'`,
      likeBeforeLiker: `select count(*) as n from post_likes l join users u on u.id = l.user_id where l.created_at < u.created_at`,
      likeBeforePost: `select count(*) as n from post_likes l join posts p on p.id = l.post_id where l.created_at < p.created_at or l.receiver_id <> p.author_id`,
      commentLikeReceiver: `select count(*) as n from comment_likes l join comments c on c.id = l.comment_id where l.receiver_id <> c.author_id or l.created_at < c.created_at`,
      followBlocked: `select count(*) as n from follows f join blocks b on (b.blocker_id, b.blocked_id) in ((f.follower_id, f.followee_id), (f.followee_id, f.follower_id))`,
      blockBeforeContent: `select count(*) as n from blocks b where b.created_at < (select max(created_at) from messages)`,
      messageByOutsider: `select count(*) as n from messages x join conversations c on c.id = x.conversation_id where c.kind <> 'public'
                          and not exists (select 1 from conversation_members cm where cm.conversation_id = c.id and cm.user_id = x.author_id)`,
      messageBeforeConversation: `select count(*) as n from messages x join conversations c on c.id = x.conversation_id where x.created_at < c.created_at`,
      lastMessageAt: `select count(*) as n from conversations c where c.last_message_at is distinct from (select max(created_at) from messages x where x.conversation_id = c.id)`,
      markerBeforeOwnMessage: `select count(*) as n from conversation_members cm where cm.last_read_message_id < coalesce((select max(id) from messages x where x.conversation_id = cm.conversation_id and x.author_id = cm.user_id), 0)`,
      personalNotTwo: `select count(*) as n from conversations c where c.kind = 'personal' and (select count(*) from conversation_members cm where cm.conversation_id = c.id and cm.user_id in (c.personal_low_id, c.personal_high_id)) <> 2`,
      groupOwnerOutside: `select count(*) as n from conversations c where c.kind = 'group' and not exists (select 1 from conversation_members cm where cm.conversation_id = c.id and cm.user_id = c.owner_id)`,
      deletedMessageWithText: `select count(*) as n from messages where deleted_at is not null and body <> ''`,
      afterEnd: `select count(*) as n from (select created_at from posts union all select created_at from comments union all select created_at from messages union all select created_at from post_likes) x where created_at > timestamptz '${meta.end}'`,
      notificationToSelf: `select count(*) as n from notifications where sender_id = recipient_id or actor_ids[1] <> sender_id`,
    };
    for (const [rule, query] of Object.entries(violations)) expect({ rule, rows: await numberOf(query) }).toEqual({ rule, rows: 0 });
  });

  it("gives benchmarks what they need and the app reads it", async () => {
    const db = handle!.db;
    expect(await readBenchMeta(url)).toEqual(meta);

    const fifty = await getPost(db, meta.posts.fiftyComments);
    expect(fifty.commentCount).toBe(50);
    const threads = await listPostComments(db, null, fifty.id);
    const shown = threads.reduce((n, thread) => n + 1 + thread.replies.length, 0);
    expect(shown).toBe(50);
    expect(threads.some((thread) => thread.replies.length > 0)).toBe(true);
    expect(meta.posts.mostCommented[0]![1]).toBeGreaterThan(50);

    for (const { word, posts } of [...meta.search.rare, ...meta.search.common]) {
      // Quoted: the word's forms only (unquoted, a last word also matches the words it begins).
      const found = await searchPosts(db, { q: `"${word}"` }, { page: 1, perPage: 10 });
      expect({ word, total: found.total, more: found.more ?? false }).toEqual({ word, total: Math.min(posts, CANDIDATES), more: posts > CANDIDATES });
    }
    expect(meta.search.rare.find((w) => w.word === "велосипед")!.posts).toBeGreaterThanOrEqual(SIZES.posts / 100);
    expect(meta.search.common[0]!.posts).toBeGreaterThan(SIZES.posts / 10);

    const demo = await verifyCredentials(db, meta.accounts.demo.email, meta.accounts.demo.password);
    expect(demo?.id).toBe(meta.accounts.demo.id);
    const adminUser = await verifyCredentials(db, meta.accounts.admin.email, meta.accounts.admin.password);
    expect(adminUser?.role).toBe("admin");

    const unread = await getUnreadRecord(db, demo!.id);
    expect(unread.personal.map((c) => c.conversationId)).toEqual(meta.conversations.demoPersonalUnread);
    expect(unread.group.map((c) => c.conversationId)).toEqual(meta.conversations.demoGroupsUnread);
    expect(unread.personal.length + unread.group.length).toBeGreaterThan(0);

    const inbox = await listNotifications(db, demo!.id, { page: 1, perPage: 50 });
    expect(inbox.total).toBeGreaterThan(0);
    expect(await countUnreadNotifications(db, demo!.id)).toBe(Math.min(15, inbox.total));

    // The sequences continue after the generated ids.
    const created = await createPost(db, demo!, PostInputSchema.parse({ title: "Продам велосипед после бенчмарка", body: "Текст поста", categoryId: 1 }));
    expect(created.id).toBe(SIZES.posts + 1);
  });

  it("replaces the database when run again", async () => {
    // The rerun drops the database: the connections to it go first.
    await sql?.end();
    await handle?.close();
    [sql, handle] = [undefined, undefined];
    const again = await generateBenchData({ serverUrl, database: name, sizes: SIZES, log: () => {}, metaDir });
    expect(again.generatedAt > meta.generatedAt).toBe(true);
    expect(again.rows).toEqual(meta.rows);
    expect(again.posts.fiftyComments).toBe(meta.posts.fiftyComments);
    const databases = await admin.unsafe<{ datname: string }[]>(`select datname from pg_database where datname like '${name}%'`);
    expect(databases.map((d) => d.datname)).toEqual([name]);
    // What the first run's test wrote is gone.
    const replaced = postgres(url, { max: 1, onnotice: () => {} });
    try {
      expect(Number((await replaced.unsafe<{ n: string }[]>(`select count(*) as n from posts`))[0]!.n)).toBe(SIZES.posts);
    } finally {
      await replaced.end();
    }
  }, 180_000);
});
