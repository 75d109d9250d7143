import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queriesOf } from "../../../tests/setup/query-count";
import { inboxOf, listenNotifications, publishPost } from "../../../tests/setup/domain";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { comments, posts } from "~/db/schema";
import { eventBus } from "~/lib/events.server";
import { createComment } from "../comments/write.server";
import { getPublicConversationId } from "../conversations/conversations.server";
import { sendMessage } from "../conversations/messages.server";
import { setLike } from "../likes/likes.server";
import { followMember } from "../people/follows.server";
import { createWallPost } from "../wall/wall.server";
import { listNotifications, markNotificationRead } from "./notifications.server";
import { registerNotificationRules } from "./subscribers.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
});
afterAll(async () => {
  await t.destroy();
});

const settle = () => eventBus(t.db).drain();

describe(`notifications name their target on ${engine} (docs/product/notifications.md#targets)`, () => {
  it("a post by its title and a comment by its excerpt and post, stored and live alike", async () => {
    const [author, reader] = [await makeUser(t.db), await makeUser(t.db)];
    await followMember(t.db, reader, author.id);
    const live = listenNotifications(t.db, reader);
    const postId = await publishPost(t.db, author, "Текст", "Как проверить продавца");
    const [postNote] = await inboxOf(t.db, reader);
    expect(postNote).toMatchObject({ type: "POST_NEW", url: `/post/${postId}`, target: { kind: "post", text: "Как проверить продавца", postTitle: null } });
    await vi.waitFor(() => expect(live).toEqual([{ ...postNote, raisesUnread: true }]));

    const long = `**Спасибо**, всё дошло. ${"Очень довольна сделкой, рекомендую всем. ".repeat(5)}`;
    const comment = await createComment(t.db, reader, postId, { body: long });
    await settle();
    const [commentNote] = await inboxOf(t.db, author);
    expect(commentNote).toMatchObject({
      type: "POST_COMMENT_NEW",
      url: `/post/${postId}#comment-${comment.id}`,
      target: { kind: "comment", postTitle: "Как проверить продавца" },
    });
    const text = commentNote!.target!.text!;
    expect(text.startsWith("Спасибо, всё дошло. Очень довольна")).toBe(true);
    expect([...text]).toHaveLength(80);
    expect(text.endsWith("…")).toBe(true);

    // A like on the comment names the comment too (grouped likes are read the same way).
    await setLike(t.db, author, "comment", comment.id!, true);
    await settle();
    expect((await inboxOf(t.db, reader))[0]).toMatchObject({ type: "POST_COMMENT_LIKE", target: { kind: "comment", text } });
  });

  it("a wall entry and a public-chat mention by their excerpts", async () => {
    const [owner, writer] = [await makeUser(t.db), await makeUser(t.db)];
    await createWallPost(t.db, writer, owner.id, { body: "Привет! Спасибо за быструю сделку" });
    await settle();
    expect((await inboxOf(t.db, owner))[0]).toMatchObject({
      type: "WALL_POST_NEW",
      target: { kind: "wall_post", text: "Привет! Спасибо за быструю сделку" },
    });
    const publicId = await getPublicConversationId(t.db);
    await sendMessage(t.db, writer.id, "group", publicId, { body: `@${owner.username} загляните в мой пост` });
    await settle();
    expect((await inboxOf(t.db, owner))[0]).toMatchObject({
      type: "PUBLIC_CONVERSATION_MESSAGE_MENTION",
      target: { kind: "message", text: `@${owner.username} загляните в мой пост` },
    });
  });

  it("a deleted or hidden item is named by its kind only, never by its text", async () => {
    const [author, reader] = [await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, author, "Текст", "Секретный заголовок");
    const comment = await createComment(t.db, reader, postId, { body: "Комментарий, который скроют" });
    await settle();
    await t.db.update(comments).set({ hiddenAt: new Date() }).where(eq(comments.id, comment.id!));
    expect((await inboxOf(t.db, author))[0]!.target).toEqual({ kind: "comment", text: null, postTitle: "Секретный заголовок" });
    await t.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, postId));
    const [note] = await inboxOf(t.db, author);
    expect(note!.target).toEqual({ kind: "comment", text: null, postTitle: null });
    // Marking it read answers the same shape.
    expect((await markNotificationRead(t.db, author.id, note!.id!)).target).toEqual(note!.target);
  });

  it("a page costs the same number of queries whatever its targets", async () => {
    const [few, many, writer] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const fewPost = await publishPost(t.db, few);
    await createComment(t.db, writer, fewPost, { body: "Один" });
    const manyPost = await publishPost(t.db, many);
    // Each comment from its own writer (one comment per 5 s each).
    for (let i = 0; i < 5; i += 1) await createComment(t.db, await makeUser(t.db), manyPost, { body: `Комментарий ${i}` });
    await createWallPost(t.db, writer, many.id, { body: "Запись" });
    await settle();
    const one = await queriesOf(t.db, () => listNotifications(t.db, few.id, { page: 1, perPage: 10 }));
    const six = await queriesOf(t.db, () => listNotifications(t.db, many.id, { page: 1, perPage: 10 }));
    expect(six).toBe(one);
    expect(one).toBe(2);
  });
});
