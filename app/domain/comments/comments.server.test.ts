import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { comments, posts, rateLimits, users } from "~/db/schema";
import { Conflict, Forbidden, NotFound, RateLimited, ValidationFailed } from "~/lib/errors";
import { eventBus, type DomainEvent } from "~/lib/events.server";
import { COMMENT_THREADS_PER_PAGE, listMemberComments, listPostComments, listPostCommentThreads } from "./comments.server";
import { COMMENT_RATE_MESSAGE, createComment, deleteComment, editComment } from "./write.server";
import { COMMENT_MAX, CommentActionSchema, CommentBodySchema } from "./schemas";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

/** Forgets every rate-limit counter, for tests where one member writes several comments. */
async function resetLimits() {
  await t.db.delete(rateLimits);
}

async function commentCount(postId: number) {
  const [row] = await t.db.select({ value: posts.commentCount }).from(posts).where(eq(posts.id, postId));
  return row!.value;
}

async function makeModerator() {
  const user = await makeUser(t.db);
  const [row] = await t.db.update(users).set({ role: "moderator" }).where(eq(users.id, user.id)).returning();
  return row!;
}

/** A second handle on the same connection that counts the SQL statements it sends. */
async function countingDb(handle: TestDatabase): Promise<{ db: Db; queries: string[] }> {
  const queries: string[] = [];
  const logger = { logQuery: (query: string) => void queries.push(query) };
  const client = (handle.db as unknown as { $client: never }).$client;
  const db =
    handle.kind === "pglite"
      ? (await import("drizzle-orm/pglite")).drizzle(client, { schema, logger })
      : (await import("drizzle-orm/postgres-js")).drizzle(client, { schema, logger });
  return { db: db as unknown as Db, queries };
}

describe(`comments on ${engine}`, () => {
  it("threads replies under their top-level comment; a reply to a reply sits at the second level and names whom it answers", async () => {
    const [author, anna, boris, vera, gleb] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    const first = await createComment(t.db, anna, postId, { body: "Сколько стоит?" });
    const reply = await createComment(t.db, boris, postId, { body: "Цена в посте", parentId: first.id });
    const replyToReply = await createComment(t.db, vera, postId, { body: "Там без скидки", parentId: reply.id });
    const second = await createComment(t.db, gleb, postId, { body: "Беру" });

    const threads = await listPostComments(t.db, null, postId);
    expect(threads.map((c) => c.body)).toEqual(["Сколько стоит?", "Беру"]);
    const [thread, other] = threads;
    expect(thread!.replies.map((c) => c.body)).toEqual(["Цена в посте", "Там без скидки"]);
    expect(thread!.replies.every((c) => c.replies.length === 0)).toBe(true);
    expect(thread!.replyTo).toBeNull();
    expect(thread!.replies[0]).toMatchObject({
      id: reply.id,
      parentId: first.id,
      replyTo: { commentId: first.id, author: { id: anna.id, username: anna.username } },
    });
    expect(thread!.replies[1]).toMatchObject({
      id: replyToReply.id,
      parentId: reply.id,
      replyTo: { commentId: reply.id, author: { id: boris.id, username: boris.username } },
      author: { id: vera.id, username: vera.username },
    });
    expect(other!.id).toBe(second.id);
    expect(other!.replies).toEqual([]);
  });

  it("refuses a reply to a comment of another post, an unknown comment or an unknown post", async () => {
    const [author, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const postA = await makePost(t.db, author, "Первый пост");
    const postB = await makePost(t.db, author, "Второй пост");
    const elsewhere = await createComment(t.db, author, postA, { body: "Под первым постом" });
    await expect(createComment(t.db, member, postB, { body: "Ответ", parentId: elsewhere.id })).rejects.toMatchObject({
      code: "comment_not_found",
      status: 404,
    });
    await expect(createComment(t.db, member, postB, { body: "Ответ", parentId: 2_000_000_000 })).rejects.toBeInstanceOf(NotFound);
    await expect(createComment(t.db, member, 2_000_000_000, { body: "Ответ" })).rejects.toMatchObject({ code: "post_not_found" });
    // None of the refusals spent the member's rate limit.
    await expect(createComment(t.db, member, postB, { body: "Нормальный комментарий" })).resolves.toMatchObject({ body: "Нормальный комментарий" });
  });

  it("links @mentions of existing members to their profiles and lists them in the event", async () => {
    const [author, writer, mentioned] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    const events: DomainEvent[] = [];
    const off = eventBus(t.db).subscribe("comment.created", (event) => void events.push(event));
    const created = await createComment(t.db, writer, postId, {
      body: `@${mentioned.username.toUpperCase()}, проверь. @nobody_here_xyz и сам @${writer.username}`,
    });
    await eventBus(t.db).drain();
    off();
    expect(created.html).toContain(`<a href="/profile/${mentioned.id}" class="mention">@${mentioned.username}</a>`);
    expect(created.html).toContain("@nobody_here_xyz");
    expect(created.html).not.toContain('href="/profile/undefined"');
    const [listed] = await listPostComments(t.db, null, postId);
    expect(listed!.html).toBe(created.html);
    expect(events).toEqual([expect.objectContaining({ commentId: created.id, mentionedUserIds: [mentioned.id] })]);
  });

  it("publishes comment.created after the commit with the post's and the parent's authors", async () => {
    const [author, anna, boris] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    const events: DomainEvent[] = [];
    const visible: boolean[] = [];
    const off = eventBus(t.db).subscribe("comment.created", async (event, db) => {
      events.push(event);
      const found = await db.select({ id: comments.id }).from(comments).where(eq(comments.id, event.commentId));
      visible.push(found.length === 1);
    });
    const top = await createComment(t.db, anna, postId, { body: "Первый" });
    const reply = await createComment(t.db, boris, postId, { body: "Ответ", parentId: top.id });
    await expect(createComment(t.db, boris, postId, { body: "Слишком быстро" })).rejects.toBeInstanceOf(RateLimited);
    await eventBus(t.db).drain();
    off();
    expect(events).toEqual([
      { type: "comment.created", commentId: top.id, postId, authorId: anna.id, postAuthorId: author.id, parentAuthorId: null, mentionedUserIds: [] },
      { type: "comment.created", commentId: reply.id, postId, authorId: boris.id, postAuthorId: author.id, parentAuthorId: anna.id, mentionedUserIds: [] },
    ]);
    expect(visible).toEqual([true, true]);
  });

  it("lets only the author edit, marking the comment edited", async () => {
    const [author, writer, stranger, moderator] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db), makeModerator()]);
    const postId = await makePost(t.db, author);
    const comment = await createComment(t.db, writer, postId, { body: "Продам за 100" });
    await expect(editComment(t.db, stranger, postId, comment.id, "Чужая правка")).rejects.toMatchObject({ code: "not_comment_author", status: 403 });
    await expect(editComment(t.db, moderator, postId, comment.id, "Правка модератора")).rejects.toBeInstanceOf(Forbidden);
    await expect(editComment(t.db, writer, postId, comment.id, "  ")).rejects.toBeInstanceOf(ValidationFailed);
    await expect(editComment(t.db, writer, postId, 2_000_000_000, "Текст")).rejects.toMatchObject({ code: "comment_not_found" });
    const otherPost = await makePost(t.db, author, "Другой пост");
    await expect(editComment(t.db, writer, otherPost, comment.id, "Не тот пост")).rejects.toBeInstanceOf(NotFound);

    const edited = await editComment(t.db, writer, postId, comment.id, "Продам за **90**");
    expect(edited).toMatchObject({ body: "Продам за **90**", canEdit: true });
    expect(edited.html).toContain("<strong>90</strong>");
    expect(edited.editedAt).not.toBeNull();
    const [listed] = await listPostComments(t.db, stranger, postId);
    expect(listed).toMatchObject({ body: "Продам за **90**", editedAt: edited.editedAt, canEdit: false, canDelete: false });
  });

  it("soft-deletes for the author or a moderator: the text goes, the thread and its replies stay", async () => {
    const [author, writer, replier, stranger, moderator] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db), makeModerator()]);
    const postId = await makePost(t.db, author);
    const top = await createComment(t.db, writer, postId, { body: "Секретный текст продавца" });
    const reply = await createComment(t.db, replier, postId, { body: "Ответ остаётся", parentId: top.id });

    expect((await listPostComments(t.db, moderator, postId))[0]).toMatchObject({ canEdit: false, canDelete: true });
    await expect(deleteComment(t.db, stranger, postId, top.id)).rejects.toMatchObject({ code: "cannot_delete_comment", status: 403 });
    expect((await listPostComments(t.db, null, postId))[0]!.body).toBe("Секретный текст продавца");

    const deleted = await deleteComment(t.db, writer, postId, top.id);
    expect(deleted).toMatchObject({ deleted: true, body: null, html: null, canEdit: false, canDelete: false });
    const threads = await listPostComments(t.db, writer, postId);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ id: top.id, deleted: true, body: null, html: null, author: { id: writer.id } });
    expect(threads[0]!.replies).toEqual([
      expect.objectContaining({ id: reply.id, body: "Ответ остаётся", deleted: false, replyTo: expect.objectContaining({ commentId: top.id }) }),
    ]);
    expect(JSON.stringify(threads)).not.toContain("Секретный текст продавца");

    await expect(editComment(t.db, writer, postId, top.id, "Воскрешение")).rejects.toBeInstanceOf(Conflict);
    await expect(createComment(t.db, stranger, postId, { body: "Ответ удалённому", parentId: top.id })).rejects.toMatchObject({
      code: "comment_deleted",
      status: 409,
    });

    const byModerator = await deleteComment(t.db, moderator, postId, reply.id);
    expect(byModerator.deleted).toBe(true);
    const [row] = await t.db.select({ deletedById: comments.deletedById }).from(comments).where(eq(comments.id, reply.id));
    expect(row!.deletedById).toBe(moderator.id);
    const after = await listPostComments(t.db, null, postId);
    expect(after[0]!.replies.map((c) => [c.id, c.deleted])).toEqual([[reply.id, true]]);
  });

  it("keeps posts.comment_count equal to the comments a reader can read", async () => {
    const [author, anna, boris] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    const one = await createComment(t.db, anna, postId, { body: "Один" });
    await createComment(t.db, boris, postId, { body: "Два", parentId: one.id });
    await resetLimits();
    await createComment(t.db, anna, postId, { body: "Три" });
    expect(await commentCount(postId)).toBe(3);
    await deleteComment(t.db, anna, postId, one.id);
    expect(await commentCount(postId)).toBe(2);
    await deleteComment(t.db, anna, postId, one.id);
    expect(await commentCount(postId)).toBe(2);
    const [live] = await t.db
      .select({ value: sql<number>`count(*)::int` })
      .from(comments)
      .where(sql`${comments.postId} = ${postId} and ${comments.deletedAt} is null`);
    expect(live!.value).toBe(2);
  });

  it("allows one comment per 5 seconds per member (docs/product/limits.md#rate-limits) with a Russian message", async () => {
    const [author, member, other] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    await expect(createComment(t.db, member, postId, { body: "" })).rejects.toBeInstanceOf(ValidationFailed);
    await createComment(t.db, member, postId, { body: "Первый" });
    const refused = await createComment(t.db, member, postId, { body: "Второй" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimited);
    expect(refused).toMatchObject({ status: 429, message: COMMENT_RATE_MESSAGE });
    expect((refused as RateLimited).retryAfterMs).toBeGreaterThan(0);
    expect((refused as RateLimited).retryAfterMs).toBeLessThanOrEqual(5_000);
    await createComment(t.db, other, postId, { body: "Другой участник" });
    expect((await listPostComments(t.db, null, postId)).map((c) => c.body)).toEqual(["Первый", "Другой участник"]);
    expect(await commentCount(postId)).toBe(2);
  });

  it("stores up to 10 000 characters counted as the database counts them", async () => {
    const [author, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    const emoji = "😀".repeat(COMMENT_MAX);
    expect(emoji.length).toBe(2 * COMMENT_MAX);
    const created = await createComment(t.db, member, postId, { body: emoji });
    const [row] = await t.db
      .select({ length: sql<number>`char_length(${comments.body})` })
      .from(comments)
      .where(eq(comments.id, created.id));
    expect(row!.length).toBe(COMMENT_MAX);
    await resetLimits();
    await expect(createComment(t.db, member, postId, { body: `${emoji}!` })).rejects.toMatchObject({ code: "invalid_comment", status: 400 });
    await expect(createComment(t.db, member, postId, { body: "a\0b" })).rejects.toBeInstanceOf(ValidationFailed);
  });

  it("lists a member's live comments newest first with their posts; unknown members are 404", async () => {
    const [author, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const postA = await makePost(t.db, author, "Пост про Steam");
    const postB = await makePost(t.db, author, "Пост про крипту");
    const now = Date.now();
    await t.db.insert(comments).values(
      Array.from({ length: 12 }, (_, i) => ({
        postId: i % 2 === 0 ? postA : postB,
        authorId: member.id,
        body: `Комментарий ${i} для @${author.username}`,
        createdAt: new Date(now - i * 60_000),
        deletedAt: i === 1 ? new Date() : null,
      })),
    );
    const first = await listMemberComments(t.db, member.id, { page: 1, perPage: 5 });
    expect(first).toMatchObject({ total: 11, totalPages: 3, page: 1, perPage: 5 });
    expect(first.items.map((c) => c.body.split(" для")[0])).toEqual(["Комментарий 0", "Комментарий 2", "Комментарий 3", "Комментарий 4", "Комментарий 5"]);
    expect(first.items[0]).toMatchObject({ post: { id: postA, title: "Пост про Steam" } });
    expect(first.items[2]).toMatchObject({ post: { id: postB, title: "Пост про крипту" } });
    expect(first.items[0]!.html).toContain(`href="/profile/${author.id}"`);
    const last = await listMemberComments(t.db, member.id, { page: 3, perPage: 5 });
    expect(last.items.map((c) => c.body.split(" для")[0])).toEqual(["Комментарий 11"]);
    for (const bad of [2_000_000_000, Number.NaN, -1]) {
      await expect(listMemberComments(t.db, bad, { page: 1, perPage: 10 })).rejects.toMatchObject({ code: "profile_not_found", status: 404 });
    }
  });

  it("lists a post's comments with the same few queries whatever their number", async () => {
    const members = await Promise.all(Array.from({ length: 5 }, () => makeUser(t.db)));
    const viewer = members[0]!;
    const seed = async (count: number) => {
      const postId = await makePost(t.db, viewer);
      const [top] = await t.db
        .insert(comments)
        .values({ postId, authorId: members[1]!.id, body: `Первый для @${members[2]!.username}` })
        .returning();
      const rest = Array.from({ length: count - 1 }, (_, i) => ({
        postId,
        authorId: members[i % members.length]!.id,
        parentId: i % 3 === 0 ? null : top!.id,
        body: `Комментарий ${i} для @${members[(i + 1) % members.length]!.username}`,
      }));
      if (rest.length > 0) await t.db.insert(comments).values(rest);
      return postId;
    };
    const small = await seed(2);
    const large = await seed(60);
    const counting = await countingDb(t);

    const fewThreads = await listPostComments(counting.db, viewer, small);
    const fewQueries = counting.queries.length;
    counting.queries.length = 0;
    const manyThreads = await listPostComments(counting.db, viewer, large);
    const manyQueries = counting.queries.length;

    expect(fewThreads.flatMap((c) => [c, ...c.replies])).toHaveLength(2);
    expect(manyThreads.flatMap((c) => [c, ...c.replies])).toHaveLength(60);
    expect(manyThreads.some((c) => c.html?.includes('class="mention"'))).toBe(true);
    expect(manyQueries).toBe(fewQueries);
    expect(manyQueries).toBeLessThanOrEqual(3);
  });
});

describe("comment forms", () => {
  it("explain each refusal in Russian", () => {
    const message = (input: unknown) => CommentBodySchema.safeParse(input).error?.issues[0]?.message;
    expect(message(undefined)).toBe("Напишите комментарий");
    expect(message("   \n ")).toBe("Напишите комментарий");
    expect(message("a\0b")).toBe("Недопустимый символ в тексте");
    expect(message("я".repeat(COMMENT_MAX + 1))).toMatch(/^Комментарий — не длиннее 10\s000 символов$/);
    expect(CommentBodySchema.safeParse(`  ${"я".repeat(COMMENT_MAX)}  `).data).toBe("я".repeat(COMMENT_MAX));
  });

  it("tell the three intents apart and read ids from form text", () => {
    expect(CommentActionSchema.parse({ intent: "create", body: "Текст", parentId: "12" })).toEqual({ intent: "create", body: "Текст", parentId: 12 });
    expect(CommentActionSchema.parse({ intent: "create", body: "Текст" })).toEqual({ intent: "create", body: "Текст" });
    expect(CommentActionSchema.parse({ intent: "edit", body: "Новый", commentId: "3" })).toEqual({ intent: "edit", body: "Новый", commentId: 3 });
    expect(CommentActionSchema.parse({ intent: "delete", commentId: "3" })).toEqual({ intent: "delete", commentId: 3 });
    expect(CommentActionSchema.safeParse({ intent: "delete", commentId: "abc" }).success).toBe(false);
    expect(CommentActionSchema.safeParse({ intent: "delete", commentId: "99999999999" }).success).toBe(false);
    expect(CommentActionSchema.safeParse({ intent: "hack", commentId: "1" }).error?.issues[0]?.message).toBe("Неизвестное действие с комментарием");
  });

  it("pages threads: the first 50 with all their replies, the totals counting every thread (issue 12)", async () => {
    const [author, writer] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const postId = await makePost(t.db, author);
    const tops = await t.db
      .insert(comments)
      .values(Array.from({ length: 55 }, (_, i) => ({ postId, authorId: writer.id, body: `Тред ${i + 1}` })))
      .returning();
    await t.db.insert(comments).values([
      { postId, authorId: author.id, parentId: tops[0]!.id, body: "Ответ в первом" },
      { postId, authorId: author.id, parentId: tops[54]!.id, body: "Ответ в последнем" },
    ]);

    const first = await listPostCommentThreads(t.db, null, postId, COMMENT_THREADS_PER_PAGE);
    expect(first.threads.map((c) => c.body)).toEqual(Array.from({ length: 50 }, (_, i) => `Тред ${i + 1}`));
    expect(first.threads[0]!.replies.map((c) => c.body)).toEqual(["Ответ в первом"]);
    expect(first).toMatchObject({ totalThreads: 55, totalComments: 57 });

    const two = await listPostCommentThreads(t.db, null, postId, 2 * COMMENT_THREADS_PER_PAGE);
    expect(two.threads).toHaveLength(55);
    expect(two.threads[54]!.replies.map((c) => c.html)).toEqual(["<p>Ответ в последнем</p>\n"]);
  });
});
