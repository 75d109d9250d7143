import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queriesOf } from "../../../tests/setup/query-count";
import { inboxOf, listenNotifications, publishPost } from "../../../tests/setup/domain";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { blocks, follows, notifications, users } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { createComment } from "../comments/write.server";
import { createGroupConversation, getOrCreatePersonalConversation, getPublicConversationId, inviteToGroup } from "../conversations/conversations.server";
import { sendMessage } from "../conversations/messages.server";
import { blockMember } from "../people/blocks.server";
import { followMember } from "../people/follows.server";
import type { UserRow } from "../users/users.server";
import { createWallPost } from "../wall/wall.server";
import { countUnreadNotifications, listNotifications, markAllNotificationsRead, markNotificationRead } from "./notifications.server";
import { registerNotificationRules } from "./subscribers.server";
import type { NotificationDto } from "./types";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
});
afterAll(async () => {
  await t.destroy();
});

const settle = () => eventBus(t.db).drain();

async function comment(author: UserRow, postId: number, body: string, parentId?: number) {
  const created = await createComment(t.db, author, postId, { body, parentId });
  await settle();
  return created.id!;
}

const only = (items: NotificationDto[]) => items.map((n) => ({ type: n.type, title: n.title, url: n.url, read: n.read }));

describe(`notification rules on ${engine}`, () => {
  it("post.created: followers get POST_NEW (POST_NEW_VERIFIED for a verified author), live and stored; a mention beats following", async () => {
    const author = await makeUser(t.db);
    const [follower, fan, stranger] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    await followMember(t.db, follower, author.id);
    await followMember(t.db, fan, author.id);
    const live = listenNotifications(t.db, follower);

    const postId = await publishPost(t.db, author, `Привет, @${fan.username} и @${stranger.username}! И себе: @${author.username}`);

    const [notification] = await inboxOf(t.db, follower);
    expect(await inboxOf(t.db, follower)).toHaveLength(1);
    expect(notification).toMatchObject({
      type: "POST_NEW",
      senderId: author.id,
      sender: { name: author.username, avatar: null, ranks: [] },
      postId,
      title: `${author.username} создал(а) новый пост`,
      description: "Нажмите, чтобы посмотреть",
      url: `/post/${postId}`,
      actorCount: 1,
      read: false,
    });
    // Live, the same notification, which raises the unread count (it is new).
    await vi.waitFor(() => expect(live).toEqual([{ ...notification, raisesUnread: true }]));
    // The fan follows and is mentioned: one notification, the mention.
    expect(only(await inboxOf(t.db, fan))).toEqual([
      { type: "POST_MENTION", title: `${author.username} упомянул(а) вас в посте`, url: `/post/${postId}`, read: false },
    ]);
    expect(only(await inboxOf(t.db, stranger))).toEqual([expect.objectContaining({ type: "POST_MENTION" })]);
    expect(await inboxOf(t.db, author)).toEqual([]);

    const verifiedAuthor = await makeUser(t.db);
    await t.db.update(users).set({ verified: true }).where(eq(users.id, verifiedAuthor.id));
    await followMember(t.db, follower, verifiedAuthor.id);
    const verifiedPost = await publishPost(t.db, verifiedAuthor);
    expect((await inboxOf(t.db, follower))[0]).toMatchObject({
      type: "POST_NEW_VERIFIED",
      title: `${verifiedAuthor.username} ✔ (верифицирован) создал(а) новый пост`,
      url: `/post/${verifiedPost}`,
      sender: { ranks: ["VERIFIED"] },
    });
  });

  it("post.created: nothing for a follower who has blocked the author, even if a follow row survived", async () => {
    const author = await makeUser(t.db);
    const follower = await makeUser(t.db);
    // Blocking ends follows; write both rows directly to prove the notification rule holds on its own.
    await t.db.insert(follows).values({ followerId: follower.id, followeeId: author.id });
    await t.db.insert(blocks).values({ blockerId: follower.id, blockedId: author.id });
    await publishPost(t.db, author, `И тебе, @${follower.username}`);
    expect(await inboxOf(t.db, follower)).toEqual([]);
  });

  it("post.created: notifies every follower of a popular author, in batches", async () => {
    const author = await makeUser(t.db);
    const stamp = Date.now().toString(36);
    const crowd = await t.db
      .insert(users)
      .values(Array.from({ length: 1_201 }, (_, i) => ({ username: `crowd_${stamp}_${i}`, email: `crowd_${stamp}_${i}@example.test` })))
      .returning({ id: users.id });
    await t.db.insert(follows).values(crowd.map((member) => ({ followerId: member.id, followeeId: author.id })));
    const postId = await publishPost(t.db, author);
    const [stored] = await t.db
      .select({ value: count() })
      .from(notifications)
      .where(and(eq(notifications.postId, postId), eq(notifications.type, "POST_NEW")));
    expect(stored!.value).toBe(1_201);
  });

  it("the same event handled twice notifies once", async () => {
    const author = await makeUser(t.db);
    const follower = await makeUser(t.db);
    await followMember(t.db, follower, author.id);
    const postId = await publishPost(t.db, author);
    eventBus(t.db).publish({ type: "post.created", postId, authorId: author.id, mentionedUserIds: [] });
    await settle();
    expect(await inboxOf(t.db, follower)).toHaveLength(1);
  });

  it("comment.created: a reply to the parent's author, a comment to the post's author, mentions to the rest — one each", async () => {
    const [postAuthor, first, replier, mentioned] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, postAuthor);
    const firstId = await comment(first, postId, "Интересно");
    expect(only(await inboxOf(t.db, postAuthor))).toEqual([
      { type: "POST_COMMENT_NEW", title: `${first.username} оставил(а) комментарий под вашим постом`, url: `/post/${postId}#comment-${firstId}`, read: false },
    ]);

    // Mentions the post's author and the parent's author too: each hears once, by the most specific reason.
    const replyId = await comment(replier, postId, `@${postAuthor.username} @${first.username} @${mentioned.username} согласен`, firstId);
    expect((await inboxOf(t.db, first))[0]).toMatchObject({
      type: "POST_COMMENT_REPLY",
      title: `${replier.username} ответил(а) на ваш комментарий`,
      url: `/post/${postId}#comment-${replyId}`,
      postId,
      comment: { id: replyId, postId },
    });
    expect(await inboxOf(t.db, first)).toHaveLength(1);
    expect(only(await inboxOf(t.db, postAuthor))[0]).toMatchObject({ type: "POST_COMMENT_NEW", url: `/post/${postId}#comment-${replyId}` });
    expect(await inboxOf(t.db, postAuthor)).toHaveLength(2);
    expect(only(await inboxOf(t.db, mentioned))).toEqual([
      { type: "POST_COMMENT_MENTION", title: `${replier.username} упомянул(а) вас в комментарии`, url: `/post/${postId}#comment-${replyId}`, read: false },
    ]);
  });

  it("comment.created: a reply to the post's author is a reply; nothing for one's own post, own comment, or from someone blocked", async () => {
    const [postAuthor, other, blockedOne] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const postId = await publishPost(t.db, postAuthor);
    const ownId = await comment(postAuthor, postId, "Уточню: торг уместен");
    expect(await inboxOf(t.db, postAuthor)).toEqual([]);

    await comment(other, postId, "А скидка будет?", ownId);
    expect((await inboxOf(t.db, postAuthor)).map((n) => n.type)).toEqual(["POST_COMMENT_REPLY"]);

    await blockMember(t.db, postAuthor, blockedOne.id);
    await comment(blockedOne, postId, `@${postAuthor.username} ответь!`, ownId);
    expect(await inboxOf(t.db, postAuthor)).toHaveLength(1);
  });

  it("wall_post.created: WALL_POST_NEW to the owner from someone else, WALL_POST_MENTION to the mentioned; links go to the sender", async () => {
    const [owner, writer, mentioned] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const entry = await createWallPost(t.db, writer, owner.id, { body: `Привет! @${owner.username} @${mentioned.username}` });
    await settle();
    expect(only(await inboxOf(t.db, owner))).toEqual([
      { type: "WALL_POST_NEW", title: `${writer.username} создал(а) новую запись`, url: `/profile/${writer.id}`, read: false },
    ]);
    expect((await inboxOf(t.db, owner))[0]!.wallPostId).toBe(entry.id);
    expect(only(await inboxOf(t.db, mentioned))).toEqual([
      { type: "WALL_POST_MENTION", title: `${writer.username} упомянул(а) вас в записи`, url: `/profile/${writer.id}`, read: false },
    ]);

    // On one's own wall: no WALL_POST_NEW to oneself, the mention still counts.
    await createWallPost(t.db, owner, owner.id, { body: `Спасибо, @${mentioned.username}` });
    await settle();
    expect(await inboxOf(t.db, owner)).toHaveLength(1);
    expect((await inboxOf(t.db, mentioned)).map((n) => n.senderId)).toEqual([owner.id, writer.id]);
  });
});

describe(`message notifications on ${engine}`, () => {
  it("a group message reaches every other member live, never stored, not from a blocked member", async () => {
    const [owner, anna, boris] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const group = await createGroupConversation(t.db, owner.id, { name: "Трейдеры" });
    await inviteToGroup(t.db, owner.id, group.id, anna.username);
    await inviteToGroup(t.db, owner.id, group.id, boris.username);
    await blockMember(t.db, boris, owner.id);
    const [ownerLive, annaLive, borisLive] = [listenNotifications(t.db, owner), listenNotifications(t.db, anna), listenNotifications(t.db, boris)];

    await sendMessage(t.db, owner.id, "group", group.id, { body: "Всем привет" });
    await settle();
    await vi.waitFor(() => expect(annaLive).toHaveLength(1));
    expect(annaLive[0]).toMatchObject({
      id: null,
      type: "PRIVATE_CONVERSATION_MESSAGE_NEW",
      senderId: owner.id,
      privateMessage: { conversationId: group.id, conversation: { name: "Трейдеры" } },
      title: `${owner.username} написал(а) сообщение в группе Трейдеры`,
      url: `/profile/conversations?group=${group.id}`,
      read: false,
    });
    expect(ownerLive).toEqual([]);
    expect(borisLive).toEqual([]);
    expect(await inboxOf(t.db, anna)).toEqual([]);
    expect(await countUnreadNotifications(t.db, anna.id)).toBe(0);
  });

  it("a personal message reaches the other member live only", async () => {
    const [ivan, olga] = [await makeUser(t.db), await makeUser(t.db)];
    const conversation = await getOrCreatePersonalConversation(t.db, ivan.id, olga.id);
    const olgaLive = listenNotifications(t.db, olga);
    await sendMessage(t.db, ivan.id, "personal", conversation.id, { body: "Привет" });
    await settle();
    await vi.waitFor(() => expect(olgaLive).toHaveLength(1));
    expect(olgaLive[0]).toMatchObject({
      id: null,
      type: "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW",
      privatePersonalMessage: { conversationId: conversation.id },
      title: `${ivan.username} написал(а) вам сообщение`,
      url: `/profile/conversations?personal=${conversation.id}`,
    });
    expect(await inboxOf(t.db, olga)).toEqual([]);
  });

  it("a mention in the public conversation is stored and links to it", async () => {
    const [writer, mentioned, blocker] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    await blockMember(t.db, blocker, writer.id);
    const publicId = await getPublicConversationId(t.db);
    const message = await sendMessage(t.db, writer.id, "group", publicId, {
      body: `@${mentioned.username} @${blocker.username} @${writer.username} загляните`,
    });
    await settle();
    expect(await inboxOf(t.db, mentioned)).toMatchObject([
      {
        type: "PUBLIC_CONVERSATION_MESSAGE_MENTION",
        title: `${writer.username} упомянул(а) вас в сообщении`,
        url: `/profile/conversations?group=${publicId}`,
        publicMessage: { conversationId: publicId, messageId: message.id },
      },
    ]);
    expect(await inboxOf(t.db, blocker)).toEqual([]);
    expect(await inboxOf(t.db, writer)).toEqual([]);
  });
});

describe(`reading notifications on ${engine}`, () => {
  /** `recipient` gets one POST_COMMENT_NEW from each of `senders`. */
  async function commentsFrom(recipient: UserRow, senders: UserRow[]) {
    const postId = await publishPost(t.db, recipient);
    for (const sender of senders) await comment(sender, postId, "Комментарий");
    return postId;
  }

  it("pages newest first and loads senders in the same query, whatever their number", async () => {
    const [one, many] = [await makeUser(t.db), await makeUser(t.db)];
    const sender = await makeUser(t.db);
    await commentsFrom(one, [sender]);
    const senders = await Promise.all(Array.from({ length: 12 }, () => makeUser(t.db)));
    await commentsFrom(many, senders);

    const single = await queriesOf(t.db, () => listNotifications(t.db, one.id, { page: 1, perPage: 10 }));
    const full = await queriesOf(t.db, () => listNotifications(t.db, many.id, { page: 1, perPage: 10 }));
    expect(full).toBe(single);

    const page1 = await listNotifications(t.db, many.id, { page: 1, perPage: 10 });
    expect(page1).toMatchObject({ page: 1, perPage: 10, total: 12, totalPages: 2 });
    expect(page1.items.map((n) => n.senderId)).toEqual(
      senders
        .slice(2)
        .reverse()
        .map((s) => s.id),
    );
    const page2 = await listNotifications(t.db, many.id, { page: 2, perPage: 10 });
    expect(page2.items.map((n) => n.senderId)).toEqual([senders[1]!.id, senders[0]!.id]);
    expect((await listNotifications(t.db, many.id, { page: 3, perPage: 10 })).items).toEqual([]);
  });

  it("counts unread, marks one read (once), then all; another member's notification is not found", async () => {
    const [reader, intruder] = [await makeUser(t.db), await makeUser(t.db)];
    const senders = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const postId = await commentsFrom(reader, senders);
    expect(await countUnreadNotifications(t.db, reader.id)).toBe(3);

    const [newest] = await inboxOf(t.db, reader);
    const read = await markNotificationRead(t.db, reader.id, newest!.id!);
    expect(read).toMatchObject({ id: newest!.id, read: true, url: expect.stringMatching(new RegExp(`^/post/${postId}#comment-\\d+$`)) });
    const [readAt] = await t.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.id, newest!.id!));
    await markNotificationRead(t.db, reader.id, newest!.id!);
    const [again] = await t.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.id, newest!.id!));
    expect(again!.readAt).toEqual(readAt!.readAt);
    expect(await countUnreadNotifications(t.db, reader.id)).toBe(2);

    await expect(markNotificationRead(t.db, intruder.id, newest!.id!)).rejects.toBeInstanceOf(NotFound);
    await expect(markNotificationRead(t.db, reader.id, 2_147_483_647)).rejects.toMatchObject({ code: "notification_not_found", status: 404 });
    await expect(markNotificationRead(t.db, reader.id, -1)).rejects.toBeInstanceOf(NotFound);

    expect(await markAllNotificationsRead(t.db, reader.id)).toEqual({ marked: 2 });
    expect(await countUnreadNotifications(t.db, reader.id)).toBe(0);
    expect((await inboxOf(t.db, reader)).every((n) => n.read)).toBe(true);
    expect(await markAllNotificationsRead(t.db, intruder.id)).toEqual({ marked: 0 });
  });
});
