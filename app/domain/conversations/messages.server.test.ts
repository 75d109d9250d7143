import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conversationMembers, conversations, messages } from "~/db/schema";
import { Conflict, Forbidden, NotFound, RateLimited, ValidationFailed } from "~/lib/errors";
import { eventsDuring, groupWith } from "../../../tests/setup/domain";
import { engine } from "../../../tests/setup/database";
import { setUpConversationDatabase, t } from "../../../tests/setup/conversations";
import { makeUser } from "../../../tests/setup/factories";
import { makeMember } from "../../../tests/setup/moderation";
import { queriesOf } from "../../../tests/setup/query-count";
import { muteMember } from "../moderation/sanctions.server";
import { blockMember, unblockMember } from "../people/blocks.server";
import { getOrCreatePersonalConversation, getPublicConversationId } from "./conversations.server";
import { deleteMessage, editMessage, getUnreadRecord, listLatestMessages, listMessages, markConversationRead, sendMessage } from "./messages.server";

setUpConversationDatabase();

const firstPage = { page: 1, perPage: 10 };

/** Messages written straight into the table (the rate limit is not what these tests are about). */
async function writeMessages(conversationId: number, authorId: number, count: number) {
  return t.db
    .insert(messages)
    .values(Array.from({ length: count }, (_, i) => ({ conversationId, authorId, body: `Сообщение ${i + 1}` })))
    .returning();
}

describe(`sending messages on ${engine}`, () => {
  it("a member writes in a group: trimmed body, last activity and the author's read marker move, members hear of it", async () => {
    const [owner, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Сделки недели");
    const events = await eventsDuring(t.db, "message.created", async () => {
      const message = await sendMessage(t.db, member.id, "group", group.id, { body: "  Кто продаёт CS2 скины?  " });
      expect(message).toMatchObject({
        conversationId: group.id,
        author: { id: member.id, username: member.username },
        body: "Кто продаёт CS2 скины?",
        replyTo: null,
        editedAt: null,
        deleted: false,
      });
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      conversation: { id: group.id, kind: "group", name: "Сделки недели" },
      recipientIds: [owner.id],
      mentionedUserIds: [],
      message: { body: "Кто продаёт CS2 скины?" },
    });
    const [row] = await t.db.select().from(conversations).where(eq(conversations.id, group.id));
    expect(row!.lastMessageAt).not.toBeNull();
    const [marker] = await t.db.select().from(conversationMembers).where(eq(conversationMembers.userId, member.id));
    expect(marker!.lastReadMessageId).toBe(events[0]!.message.id);
  });

  it("refuses an empty or over-4000-character body and replies to messages of other conversations", async () => {
    const [owner, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Сделки недели");
    const other = await groupWith(t.db, owner, [], "Сделки недели");
    await expect(sendMessage(t.db, owner.id, "group", group.id, { body: "   " })).rejects.toMatchObject({ status: 400, message: "Напишите сообщение" });
    await expect(sendMessage(t.db, owner.id, "group", group.id, { body: "ы".repeat(4001) })).rejects.toMatchObject({
      message: `Сообщение — не длиннее ${(4000).toLocaleString("ru-RU")} символов`,
      fieldErrors: { body: [`Сообщение — не длиннее ${(4000).toLocaleString("ru-RU")} символов`] },
    });
    expect((await sendMessage(t.db, owner.id, "group", group.id, { body: "😀".repeat(4000) })).body).toHaveLength(8000);
    const elsewhere = await sendMessage(t.db, owner.id, "group", other.id, { body: "В другой беседе" });
    await expect(sendMessage(t.db, member.id, "group", group.id, { body: "Ответ", replyToId: elsewhere.id })).rejects.toBeInstanceOf(ValidationFailed);
    await expect(sendMessage(t.db, member.id, "group", group.id, { body: "Ответ", replyToId: 2_147_483_648 })).rejects.toMatchObject({
      code: "reply_not_found",
    });
    const question = await sendMessage(t.db, owner.id, "group", group.id, { body: "Цена\nвопроса?" });
    const answer = await sendMessage(t.db, member.id, "group", group.id, { body: "500 ₽", replyToId: question.id });
    expect(answer.replyTo).toEqual({ id: question.id, author: owner.username, excerpt: "Цена вопроса?", deleted: false });
  });

  it("outsiders and the wrong kind get NotFound; the public conversation is open to every member", async () => {
    const [owner, outsider] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [], "Сделки недели");
    await expect(sendMessage(t.db, outsider.id, "group", group.id, { body: "Привет" })).rejects.toBeInstanceOf(NotFound);
    await expect(sendMessage(t.db, owner.id, "personal", group.id, { body: "Привет" })).rejects.toBeInstanceOf(NotFound);
    await expect(sendMessage(t.db, owner.id, "group", 0, { body: "Привет" })).rejects.toBeInstanceOf(NotFound);
    await expect(listMessages(t.db, outsider.id, "group", group.id)).rejects.toMatchObject({ code: "conversation_not_found" });
    const publicId = await getPublicConversationId(t.db);
    const events = await eventsDuring(t.db, "message.created", () => sendMessage(t.db, outsider.id, "group", publicId, { body: "Всем привет" }));
    expect(events[0]).toMatchObject({ conversation: { id: publicId, kind: "public", name: "Общий чат" }, recipientIds: [] });
  });

  it("mentions in the public conversation reach the mentioned members, never the author or those who blocked them", async () => {
    const [author, fan, blocker] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    await blockMember(t.db, blocker, author.id);
    const publicId = await getPublicConversationId(t.db);
    const events = await eventsDuring(t.db, "message.created", () =>
      sendMessage(t.db, author.id, "group", publicId, { body: `@${fan.username} @${blocker.username} @${author.username} глянь` }),
    );
    expect(events[0]!.mentionedUserIds).toEqual([fan.id]);
  });

  it("public messages carry the members they mention, so the names link to profiles; groups and code carry none", async () => {
    const [author, fan, coder, stranger] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const publicId = await getPublicConversationId(t.db);
    const body = `@${fan.username.toUpperCase()}, глянь; \`@${coder.username}\` и @nobody_${fan.id} и https://medium.com/@${stranger.username}/post`;
    const events = await eventsDuring(t.db, "message.created", () => sendMessage(t.db, author.id, "group", publicId, { body }));
    const fanRef = { id: fan.id, username: fan.username };
    // What the author gets back, what the live frame carries, and what a later reader loads agree.
    expect(events[0]!.message.mentions).toEqual([fanRef]);
    expect(events[0]!.mentionedUserIds).toEqual([fan.id]);
    const history = await listMessages(t.db, stranger.id, "group", publicId, { limit: 1 });
    expect(history.messages[0]).toMatchObject({ body, mentions: [fanRef] });
    // The same text in a group notifies no one, so nothing links there.
    const group = await groupWith(t.db, author, [fan], "Без упоминаний");
    expect(await sendMessage(t.db, author.id, "group", group.id, { body })).toMatchObject({ mentions: [] });
  });

  it("loads the mentions of a page of public messages in a fixed number of queries", async () => {
    const members = await Promise.all(Array.from({ length: 12 }, () => makeUser(t.db)));
    const publicId = await getPublicConversationId(t.db);
    await t.db
      .insert(messages)
      .values(members.map((member, i) => ({ conversationId: publicId, authorId: members[(i + 1) % 12]!.id, body: `привет @${member.username}` })));
    const page = await listMessages(t.db, members[0]!.id, "group", publicId, { limit: 12 });
    expect(page.messages.map((m) => m.mentions)).toEqual(members.map((member) => [{ id: member.id, username: member.username }]));
    expect(await queriesOf(t.db, () => listMessages(t.db, members[0]!.id, "group", publicId, { limit: 12 }))).toBeLessThanOrEqual(5);
  });

  it("a muted member writing where they are not a member is told the conversation does not exist, however the checks finish", async () => {
    const [moderator, owner, muted] = await Promise.all([makeMember(t.db, "moderator"), makeUser(t.db), makeUser(t.db)]);
    const theirs = await groupWith(t.db, muted, [], "Своя беседа");
    const notTheirs = await groupWith(t.db, owner, [], "Чужая беседа");
    await muteMember(t.db, moderator.id, muted.id, { reason: "Флуд", endsAt: null });
    // The conversation, the sanctions and the author are read side by side: the refusal must not
    // depend on which read comes back first.
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(sendMessage(t.db, muted.id, "group", notTheirs.id, { body: "Привет" })).rejects.toMatchObject({ code: "conversation_not_found" });
    }
    await expect(sendMessage(t.db, muted.id, "group", theirs.id, { body: "Привет" })).rejects.toMatchObject({ status: 403, code: "member_muted" });
    expect(await t.db.select().from(messages).where(eq(messages.authorId, muted.id))).toEqual([]);
  });

  it("personal messages re-check blocks both ways", async () => {
    const [a, b] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const chat = await getOrCreatePersonalConversation(t.db, a.id, b.id);
    const events = await eventsDuring(t.db, "message.created", () => sendMessage(t.db, a.id, "personal", chat.id, { body: "Привет" }));
    expect(events[0]).toMatchObject({ conversation: { id: chat.id, kind: "personal", name: a.username }, recipientIds: [b.id] });
    await blockMember(t.db, b, a.id);
    await expect(sendMessage(t.db, a.id, "personal", chat.id, { body: "Ау?" })).rejects.toMatchObject({
      status: 403,
      message: "Вы не можете написать этому пользователю",
    });
    await expect(sendMessage(t.db, b.id, "personal", chat.id, { body: "Нет" })).rejects.toBeInstanceOf(Forbidden);
    await unblockMember(t.db, b, a.id);
    expect(await sendMessage(t.db, b.id, "personal", chat.id, { body: "Ладно" })).toMatchObject({ body: "Ладно" });
  });

  it("a member sends at most 20 messages in 30 seconds", async () => {
    const [owner] = await Promise.all([makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [], "Сделки недели");
    for (let i = 0; i < 20; i++) await sendMessage(t.db, owner.id, "group", group.id, { body: `Флуд ${i}` });
    const refused = sendMessage(t.db, owner.id, "group", group.id, { body: "Ещё одно" });
    await expect(refused).rejects.toBeInstanceOf(RateLimited);
    await expect(refused).rejects.toMatchObject({ status: 429, message: "Слишком много сообщений: не больше 20 за 30 секунд. Подождите немного." });
  });
});

describe(`editing and deleting on ${engine}`, () => {
  it("only the author edits; a deleted message cannot be edited", async () => {
    const [owner, member, outsider] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Сделки недели");
    const message = await sendMessage(t.db, owner.id, "group", group.id, { body: "Продам за 100" });
    const events = await eventsDuring(t.db, "message.updated", async () => {
      const edited = await editMessage(t.db, owner.id, message.id, " Продам за 90 ");
      expect(edited).toMatchObject({ id: message.id, body: "Продам за 90", deleted: false });
      expect(edited.editedAt).not.toBeNull();
    });
    expect(events).toMatchObject([{ message: { id: message.id, body: "Продам за 90" }, conversation: { id: group.id, kind: "group" } }]);
    await expect(editMessage(t.db, member.id, message.id, "Взлом")).rejects.toMatchObject({ status: 403, message: "Можно изменить только своё сообщение" });
    await expect(editMessage(t.db, outsider.id, message.id, "Взлом")).rejects.toBeInstanceOf(NotFound);
    await expect(editMessage(t.db, owner.id, message.id, "")).rejects.toBeInstanceOf(ValidationFailed);
    await deleteMessage(t.db, owner.id, message.id);
    await expect(editMessage(t.db, owner.id, message.id, "Воскрешение")).rejects.toBeInstanceOf(Conflict);
  });

  it("edits count against the 20-messages-per-30-seconds limit; deleting stays free", async () => {
    const [owner] = await Promise.all([makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [], "Сделки недели");
    const message = await sendMessage(t.db, owner.id, "group", group.id, { body: "Продам за 100" });
    for (let i = 0; i < 19; i++) await editMessage(t.db, owner.id, message.id, `Продам за ${99 - i}`);
    const refused = editMessage(t.db, owner.id, message.id, "Продам за 1");
    await expect(refused).rejects.toBeInstanceOf(RateLimited);
    await expect(refused).rejects.toMatchObject({ status: 429, message: "Слишком много сообщений: не больше 20 за 30 секунд. Подождите немного." });
    expect((await listMessages(t.db, owner.id, "group", group.id)).messages[0]).toMatchObject({ body: "Продам за 81" });
    await expect(sendMessage(t.db, owner.id, "group", group.id, { body: "Ещё одно" })).rejects.toBeInstanceOf(RateLimited);
    await deleteMessage(t.db, owner.id, message.id);
    expect((await listMessages(t.db, owner.id, "group", group.id)).messages[0]).toMatchObject({ deleted: true });
  });

  it("deleting is soft and by the author only: the history shows it deleted, replies keep a deleted quote", async () => {
    const [owner, member, outsider] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Сделки недели");
    const message = await sendMessage(t.db, owner.id, "group", group.id, { body: "Секрет" });
    const reply = await sendMessage(t.db, member.id, "group", group.id, { body: "Понял", replyToId: message.id });
    await expect(deleteMessage(t.db, member.id, message.id)).rejects.toMatchObject({ status: 403, message: "Можно удалить только своё сообщение" });
    await expect(deleteMessage(t.db, outsider.id, message.id)).rejects.toBeInstanceOf(NotFound);
    await expect(deleteMessage(t.db, owner.id, -5)).rejects.toBeInstanceOf(NotFound);
    const events = await eventsDuring(t.db, "message.deleted", async () => {
      await deleteMessage(t.db, owner.id, message.id);
      await deleteMessage(t.db, owner.id, message.id);
    });
    expect(events).toEqual([{ type: "message.deleted", messageId: message.id, conversation: { id: group.id, kind: "group" } }]);
    const history = await listMessages(t.db, member.id, "group", group.id);
    expect(history.messages.map((m) => [m.id, m.body, m.deleted])).toEqual([
      [message.id, "", true],
      [reply.id, "Понял", false],
    ]);
    expect(history.messages[1]!.replyTo).toEqual({ id: message.id, author: owner.username, excerpt: "", deleted: true });
    const [row] = await t.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row).toMatchObject({ body: "" });
    expect(row!.deletedAt).not.toBeNull();
  });
});

describe(`history and unread counts on ${engine}`, () => {
  it("history loads upwards with the before cursor, oldest first on every page", async () => {
    const [owner] = await Promise.all([makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [], "Сделки недели");
    const rows = await writeMessages(group.id, owner.id, 110);
    const ids = rows.map((row) => row.id);
    const first = await listMessages(t.db, owner.id, "group", group.id);
    expect(first.messages.map((m) => m.id)).toEqual(ids.slice(80));
    expect(first.before).toBe(ids[80]);
    const second = await listMessages(t.db, owner.id, "group", group.id, { before: first.before!, limit: 40 });
    expect(second.messages.map((m) => m.id)).toEqual(ids.slice(40, 80));
    expect(second.before).toBe(ids[40]);
    const last = await listMessages(t.db, owner.id, "group", group.id, { before: second.before!, limit: 40 });
    expect(last.before).toBeNull();
    expect(last.messages.map((m) => m.id)).toEqual(ids.slice(0, 40));
    expect(last.messages[0]).toMatchObject({ body: "Сообщение 1", author: { id: owner.id } });
    const clamped = await listMessages(t.db, owner.id, "group", group.id, { limit: 1000 });
    expect(clamped.messages.map((m) => m.id)).toEqual(ids.slice(10));
    expect(await queriesOf(t.db, () => listMessages(t.db, owner.id, "group", group.id, { limit: 100 }))).toBeLessThanOrEqual(3);
  });

  it("unread counts are exact per conversation: messages by others, not deleted, after the read marker", async () => {
    const [me, friend, other] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, me, [friend, other], "Сделки недели");
    const chat = await getOrCreatePersonalConversation(t.db, friend.id, me.id);
    await sendMessage(t.db, friend.id, "group", group.id, { body: "Раз" });
    const two = await sendMessage(t.db, other.id, "group", group.id, { body: "Два" });
    await sendMessage(t.db, me.id, "group", group.id, { body: "Моё не считается" });
    const three = await sendMessage(t.db, other.id, "group", group.id, { body: "Три" });
    await deleteMessage(t.db, other.id, three.id);
    await sendMessage(t.db, friend.id, "personal", chat.id, { body: "Лично" });
    await sendMessage(t.db, me.id, "group", await getPublicConversationId(t.db), { body: "Публично" });
    await sendMessage(t.db, friend.id, "group", await getPublicConversationId(t.db), { body: "Публично тоже" });

    // My own message moved my marker past "Раз" and "Два".
    expect(await getUnreadRecord(t.db, me.id)).toEqual({
      personal: [{ conversationId: chat.id, unreadMessages: 1, processed: true }],
      group: [],
    });
    expect(await getUnreadRecord(t.db, friend.id)).toEqual({
      personal: [],
      group: [{ conversationId: group.id, unreadMessages: 2, processed: true }],
    });
    expect(await queriesOf(t.db, () => getUnreadRecord(t.db, friend.id))).toBe(1);

    await markConversationRead(t.db, friend.id, group.id, two.id);
    expect((await getUnreadRecord(t.db, friend.id)).group).toEqual([{ conversationId: group.id, unreadMessages: 1, processed: true }]);
    await markConversationRead(t.db, friend.id, group.id, 1);
    expect((await getUnreadRecord(t.db, friend.id)).group).toHaveLength(1);
    await markConversationRead(t.db, friend.id, group.id, 2_000_000_000);
    const [marker] = await t.db.select().from(conversationMembers).where(eq(conversationMembers.userId, friend.id));
    expect(marker!.lastReadMessageId).toBe(three.id);
    expect(await getUnreadRecord(t.db, friend.id)).toEqual({ personal: [], group: [] });
    await markConversationRead(t.db, me.id, chat.id);
    expect(await getUnreadRecord(t.db, me.id)).toEqual({ personal: [], group: [] });
    // The public conversation and other members' conversations: nothing happens.
    await markConversationRead(t.db, me.id, await getPublicConversationId(t.db));
    await markConversationRead(t.db, other.id, chat.id);
  });

  it("marking an empty conversation read does not hide the messages written after", async () => {
    const [owner, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Сделки недели");
    await markConversationRead(t.db, member.id, group.id, 2_147_483_647);
    await markConversationRead(t.db, member.id, group.id);
    const [marker] = await t.db.select().from(conversationMembers).where(eq(conversationMembers.userId, member.id));
    expect(marker!.lastReadMessageId).toBe(0);
    await sendMessage(t.db, owner.id, "group", group.id, { body: "Первое сообщение" });
    expect((await getUnreadRecord(t.db, member.id)).group).toEqual([{ conversationId: group.id, unreadMessages: 1, processed: true }]);
  });

  it("the latest message of each conversation, newest first", async () => {
    const [me, a, b] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const withA = await getOrCreatePersonalConversation(t.db, me.id, a.id);
    const withB = await getOrCreatePersonalConversation(t.db, me.id, b.id);
    await sendMessage(t.db, a.id, "personal", withA.id, { body: "A1" });
    await sendMessage(t.db, b.id, "personal", withB.id, { body: "B1" });
    await sendMessage(t.db, me.id, "personal", withA.id, { body: "A2" });
    const latest = await listLatestMessages(t.db, me.id, "personal", firstPage);
    expect(latest).toMatchObject({ total: 2, totalPages: 1 });
    expect(latest.items.map((m) => m.body)).toEqual(["A2", "B1"]);
    expect((await listLatestMessages(t.db, me.id, "group", firstPage)).items).toEqual([]);
  });
});
