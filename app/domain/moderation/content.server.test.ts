/**
 * Moderators' content actions (docs/product/moderation.md#content-actions): delete and restore
 * posts, comments, wall entries and public-chat messages, close a post to comments, move it,
 * pin up to 3 on the home feed — each honoured by the read paths, audited, refused to members,
 * and explained in Russian when wrong.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, posts } from "~/db/schema";
import { listPostComments } from "~/domain/comments/comments.server";
import { createComment, deleteComment } from "~/domain/comments/write.server";
import { createGroupConversation, getPublicConversationId } from "~/domain/conversations/conversations.server";
import { deleteMessage, listMessages, sendMessage } from "~/domain/conversations/messages.server";
import { getPost, listPosts } from "~/domain/posts/posts.server";
import type { UserRow } from "~/domain/users/users.server";
import { createWallPost, loadWall } from "~/domain/wall/wall.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { eventsDuring } from "../../../tests/setup/domain";
import { makePost } from "../../../tests/setup/factories";
import { auditEntries, makeMember, refusal } from "../../../tests/setup/moderation";
import { deleteContent, MAX_PINNED_POSTS, movePost, restoreContent, setPostCommentsClosed, setPostPinned } from "./content.server";

let t: TestDatabase;
let moderator: UserRow;
let author: UserRow;
let reader: UserRow;
const page = { page: 1, perPage: 50 };

beforeAll(async () => {
  t = await createTestDatabase();
  moderator = await makeMember(t.db, "moderator");
  author = await makeMember(t.db);
  reader = await makeMember(t.db);
});
afterAll(async () => {
  await t.destroy();
});

const commentCount = async (postId: number) => (await t.db.select({ n: posts.commentCount }).from(posts).where(eq(posts.id, postId)))[0]!.n;

describe(`deleting and restoring on ${engine}`, () => {
  it("deletes a post for everyone but moderators, and restores it", async () => {
    const postId = await makePost(t.db, author, "Продам ключи Steam");
    expect(await deleteContent(t.db, moderator.id, { type: "post", id: postId }, { reason: "Продажа ворованных ключей" })).toMatchObject({ deleted: true });
    const gone = await refusal(() => getPost(t.db, postId, author));
    expect([gone.status, gone.code, gone.message]).toEqual([404, "post_deleted", "Пост удалён модератором"]);
    expect((await getPost(t.db, postId, moderator)).deleted).toBe(true);
    expect((await listPosts(t.db, { authorId: author.id, reader: moderator }, page)).items.map((p) => p.id)).not.toContain(postId);
    const again = await refusal(() => deleteContent(t.db, moderator.id, { type: "post", id: postId }));
    expect([again.status, again.code, again.message]).toEqual([409, "already_deleted", "Это уже удалено модератором"]);

    await restoreContent(t.db, moderator.id, { type: "post", id: postId }, { reason: "Ключи оказались легальными" });
    expect((await getPost(t.db, postId)).deleted).toBe(false);
    const [deleted] = await auditEntries(t.db, "content.delete", author.id);
    const [restored] = await auditEntries(t.db, "content.restore", author.id);
    expect(deleted).toMatchObject({ actorId: moderator.id, targetType: "post", targetId: postId, reason: "Продажа ворованных ключей" });
    expect(restored).toMatchObject({ actorId: moderator.id, targetId: postId, reason: "Ключи оказались легальными" });
    expect((await refusal(() => restoreContent(t.db, moderator.id, { type: "post", id: postId }))).code).toBe("not_deleted");
  });

  it("shows a deleted comment as «Удалено модератором» in its thread, keeps the count right, and restores it", async () => {
    const postId = await makePost(t.db, reader);
    const comment = await createComment(t.db, author, postId, { body: "Пишите в личку, скину дешевле" });
    const own = await createComment(t.db, reader, postId, { body: "Мой комментарий" });
    expect(await commentCount(postId)).toBe(2);
    await deleteContent(t.db, moderator.id, { type: "comment", id: comment.id });
    const shown = (await listPostComments(t.db, reader, postId)).find((c) => c.id === comment.id)!;
    expect(shown).toMatchObject({ deleted: true, moderated: true, body: null, html: null });
    expect(await commentCount(postId)).toBe(1);
    await restoreContent(t.db, moderator.id, { type: "comment", id: comment.id });
    expect((await listPostComments(t.db, reader, postId)).find((c) => c.id === comment.id)).toMatchObject({
      deleted: false,
      body: "Пишите в личку, скину дешевле",
    });
    expect(await commentCount(postId)).toBe(2);

    // An author's own delete stays theirs; the comment page's delete button of a moderator is a moderation action.
    await deleteComment(t.db, reader, postId, own.id);
    const authors = await refusal(() => restoreContent(t.db, moderator.id, { type: "comment", id: own.id }));
    expect([authors.code, authors.message]).toEqual(["deleted_by_author", "Автор удалил это сам — восстановить нельзя"]);
    const byButton = await deleteComment(t.db, moderator, postId, comment.id);
    expect(byButton).toMatchObject({ deleted: true, moderated: true });
    expect((await auditEntries(t.db, "content.delete", author.id)).filter((e) => e.targetType === "comment" && e.targetId === comment.id)).toHaveLength(2);
    const [row] = await t.db.select().from(comments).where(eq(comments.id, comment.id));
    expect(row!.body).toBe("Пишите в личку, скину дешевле");
  });

  it("deletes and restores a wall entry in place", async () => {
    const entry = await createWallPost(t.db, author, reader.id, { body: "Лучшие скины тут!" });
    await deleteContent(t.db, moderator.id, { type: "wall_post", id: entry.id });
    const shown = (await loadWall(t.db, reader, reader.id, page)).entries.items.find((e) => e.id === entry.id)!;
    expect(shown).toMatchObject({ deleted: true, body: "", html: "" });
    await restoreContent(t.db, moderator.id, { type: "wall_post", id: entry.id });
    expect((await loadWall(t.db, null, reader.id, page)).entries.items.find((e) => e.id === entry.id)).toMatchObject({
      deleted: false,
      body: "Лучшие скины тут!",
    });
  });

  it("deletes a public-chat message live for open chats, but not private ones outside the report queue", async () => {
    const publicId = await getPublicConversationId(t.db);
    const message = await sendMessage(t.db, author.id, "group", publicId, { body: "Бесплатные USDT по ссылке" });
    const frames = await eventsDuring(t.db, "message.updated", () => deleteContent(t.db, moderator.id, { type: "message", id: message.id }));
    expect(frames.map((f) => f.message)).toEqual([expect.objectContaining({ id: message.id, deleted: true, moderated: true, body: "" })]);
    expect((await listMessages(t.db, reader.id, "group", publicId)).messages.find((m) => m.id === message.id)).toMatchObject({
      deleted: true,
      moderated: true,
      body: "",
    });
    await restoreContent(t.db, moderator.id, { type: "message", id: message.id });
    expect((await listMessages(t.db, reader.id, "group", publicId)).messages.find((m) => m.id === message.id)).toMatchObject({
      deleted: false,
      body: "Бесплатные USDT по ссылке",
    });

    const group = await createGroupConversation(t.db, author.id, { name: "Своя компания" });
    const secret = await sendMessage(t.db, author.id, "group", group.id, { body: "Личное" });
    const refused = await refusal(() => deleteContent(t.db, moderator.id, { type: "message", id: secret.id }));
    expect([refused.status, refused.code]).toEqual([403, "private_message"]);
    await deleteMessage(t.db, author.id, message.id);
    expect((await refusal(() => deleteContent(t.db, moderator.id, { type: "message", id: message.id }))).message).toBe("Автор уже удалил это сам");
  });
});

describe(`post actions on ${engine}`, () => {
  it("closes a post to new comments (moderators may still answer) and opens it again", async () => {
    const postId = await makePost(t.db, author);
    // A fresh commenter: the 5-second comment limit of the other tests' members does not interfere.
    const commenter = await makeMember(t.db);
    expect(await setPostCommentsClosed(t.db, moderator.id, postId, true, { reason: "Спор ушёл в оскорбления" })).toMatchObject({ commentsClosed: true });
    expect((await getPost(t.db, postId)).commentsClosed).toBe(true);
    const closed = await refusal(() => createComment(t.db, commenter, postId, { body: "А я всё равно скажу" }));
    expect([closed.status, closed.code, closed.message]).toEqual([409, "comments_closed", "Комментарии к этому посту закрыты модератором"]);
    expect((await createComment(t.db, moderator, postId, { body: "Тема закрыта." })).body).toBe("Тема закрыта.");
    expect((await refusal(() => setPostCommentsClosed(t.db, moderator.id, postId, true))).code).toBe("already_closed");
    await setPostCommentsClosed(t.db, moderator.id, postId, false);
    expect((await createComment(t.db, commenter, postId, { body: "Спасибо, что открыли" })).body).toBe("Спасибо, что открыли");
    expect((await auditEntries(t.db, "post.close", author.id))[0]).toMatchObject({ targetId: postId, reason: "Спор ушёл в оскорбления" });
    expect(await auditEntries(t.db, "post.open", author.id)).toHaveLength(1);
  });

  it("moves a post to another category", async () => {
    const postId = await makePost(t.db, author, "Куплю видеокарту", 8);
    expect(await movePost(t.db, moderator.id, postId, 1, { reason: "Это торговля" })).toMatchObject({ categoryId: 1 });
    expect((await getPost(t.db, postId)).category).toEqual({ id: 1, name: "Торговля" });
    expect((await auditEntries(t.db, "post.move", author.id))[0]!.details).toEqual({ fromCategoryId: 8, toCategoryId: 1 });
    const same = await refusal(() => movePost(t.db, moderator.id, postId, 1));
    expect([same.code, same.message]).toEqual(["same_category", "Пост уже в разделе «Торговля»"]);
    for (const bad of [0, 42, 1.5]) {
      const error = await refusal(() => movePost(t.db, moderator.id, postId, bad));
      expect([error.status, error.code, error.message]).toEqual([400, "invalid_category", "Такого раздела нет"]);
    }
  });

  it("pins up to 3 posts, shown first on the home feed (newest pin first), and unpins", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await makePost(t.db, author, `Пост для закрепления ${i}`));
    const [a, b, c, d] = ids as [number, number, number, number];
    const base = new Date(Date.now() - 60_000);
    await setPostPinned(t.db, moderator.id, a, true, {}, base);
    await setPostPinned(t.db, moderator.id, b, true, {}, new Date(base.getTime() + 1000));
    await setPostPinned(t.db, moderator.id, c, true, {}, new Date(base.getTime() + 2000));
    const full = await refusal(() => setPostPinned(t.db, moderator.id, d, true));
    expect([full.status, full.code, full.message]).toEqual([
      409,
      "pin_limit",
      `На главной уже закреплено ${MAX_PINNED_POSTS} поста: открепите один, чтобы закрепить этот`,
    ]);

    const first = await listPosts(t.db, { pinnedFirst: true }, { page: 1, perPage: 4 });
    expect(first.items.map((p) => [p.id, p.pinned])).toEqual([
      [c, true],
      [b, true],
      [a, true],
      [ids[4], false],
    ]);
    const second = await listPosts(t.db, { pinnedFirst: true }, { page: 2, perPage: 4 });
    const everything = await listPosts(t.db, {}, { page: 1, perPage: 50 });
    expect(second.items.map((p) => p.id)).toEqual(
      everything.items
        .filter((p) => ![a, b, c, ids[4]].includes(p.id))
        .slice(0, 4)
        .map((p) => p.id),
    );
    expect(first.total).toBe(everything.total);

    await setPostPinned(t.db, moderator.id, b, false);
    expect((await setPostPinned(t.db, moderator.id, d, true)).pinned).toBe(true);
    expect((await refusal(() => setPostPinned(t.db, moderator.id, b, false))).code).toBe("not_pinned");
    expect((await refusal(() => setPostPinned(t.db, moderator.id, d, true))).code).toBe("already_pinned");
    await deleteContent(t.db, moderator.id, { type: "post", id: d });
    expect((await getPost(t.db, d, moderator)).pinned).toBe(false);
    expect((await refusal(() => setPostPinned(t.db, moderator.id, d, true))).code).toBe("already_deleted");
    expect(await auditEntries(t.db, "post.pin", author.id)).toHaveLength(4);
  });
});

describe(`who may act, and bad input, on ${engine}`, () => {
  it("refuses members on every action and explains bad input in Russian", async () => {
    const postId = await makePost(t.db, author);
    const actions: (() => Promise<unknown>)[] = [
      () => deleteContent(t.db, reader.id, { type: "post", id: postId }),
      () => restoreContent(t.db, reader.id, { type: "post", id: postId }),
      () => setPostCommentsClosed(t.db, author.id, postId, true),
      () => movePost(t.db, author.id, postId, 2),
      () => setPostPinned(t.db, author.id, postId, true),
    ];
    for (const action of actions) {
      const error = await refusal(action);
      expect([error.status, error.code]).toEqual([403, "not_moderator"]);
    }
    const cases: [() => Promise<unknown>, number, string, string][] = [
      [() => deleteContent(t.db, moderator.id, { type: "poll" as never, id: postId }), 400, "invalid_target", "Неизвестный вид материала"],
      [() => deleteContent(t.db, moderator.id, { type: "post", id: 2_000_000_000 }), 404, "post_not_found", "Пост не найден"],
      [() => deleteContent(t.db, moderator.id, { type: "comment", id: -4 }), 404, "comment_not_found", "Комментарий не найден"],
      [
        () => deleteContent(t.db, moderator.id, { type: "post", id: postId }, { reason: "я".repeat(10_000) }),
        400,
        "invalid_reason",
        "Причина — не длиннее 1000 символов",
      ],
      [() => setPostPinned(t.db, moderator.id, 2_000_000_000, true), 404, "post_not_found", "Пост не найден"],
    ];
    for (const [run, status, code, message] of cases) {
      const error = await refusal(run);
      expect([error.status, error.code, error.message]).toEqual([status, code, message]);
    }
    const post = await getPost(t.db, postId);
    expect(post).toMatchObject({ deleted: false, commentsClosed: false, pinned: false, category: { id: 7 } });
  });
});
