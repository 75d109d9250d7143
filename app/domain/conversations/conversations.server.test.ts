import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { conversationMembers, conversations, rateLimits, users } from "~/db/schema";
import { Conflict, Forbidden, NotFound } from "~/lib/errors";
import { eventsDuring, groupWith } from "../../../tests/setup/domain";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { queriesOf } from "../../../tests/setup/query-count";
import { blockMember } from "../people/blocks.server";
import {
  createGroupConversation,
  getConversation,
  getOrCreatePersonalConversation,
  getPublicConversationId,
  inviteToGroup,
  leaveGroup,
  listConversations,
  removeFromGroup,
} from "./conversations.server";
import { getUnreadRecord, sendMessage } from "./messages.server";
import { CHAT_LIMITS } from "./types";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});
// The 20-per-30-s message limit has its own test (messages.server.test.ts).
beforeEach(async () => {
  await t.db.delete(rateLimits);
});

const firstPage = { page: 1, perPage: 10 };

describe(`group conversations on ${engine}`, () => {
  it("the owner creates a group with a trimmed name and is its first member", async () => {
    const owner = await makeUser(t.db);
    const group = await createGroupConversation(t.db, owner.id, { name: "  Торговцы Steam  " });
    expect(group).toMatchObject({ kind: "group", name: "Торговцы Steam", ownerId: owner.id, memberCount: 1, lastMessage: null, unreadMessages: 0, peer: null });
    const detail = await getConversation(t.db, owner.id, "group", group.id);
    expect(detail.members.map((m) => m.id)).toEqual([owner.id]);
  });

  it("refuses an empty or over-100-character name in Russian", async () => {
    const owner = await makeUser(t.db);
    await expect(createGroupConversation(t.db, owner.id, { name: "   " })).rejects.toMatchObject({
      status: 400,
      message: "Введите название беседы",
      fieldErrors: { name: ["Введите название беседы"] },
    });
    await expect(createGroupConversation(t.db, owner.id, { name: "я".repeat(101) })).rejects.toMatchObject({
      code: "invalid_input",
      message: "Название беседы — не длиннее 100 символов",
    });
    expect(await createGroupConversation(t.db, owner.id, { name: "я".repeat(100) })).toMatchObject({ name: "я".repeat(100) });
  });

  it("only the owner invites; unknown names, members already in and members who blocked the owner are refused", async () => {
    const [owner, member, stranger, other, blocker] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member]);
    await inviteToGroup(t.db, owner.id, group.id, `@${other.username.toUpperCase()}`);
    expect((await getConversation(t.db, owner.id, "group", group.id)).members.map((m) => m.id)).toEqual([owner.id, member.id, other.id]);

    await expect(inviteToGroup(t.db, member.id, group.id, stranger.username)).rejects.toMatchObject({
      status: 403,
      code: "not_owner",
      message: "Приглашать участников может только владелец беседы",
    });
    await expect(inviteToGroup(t.db, stranger.id, group.id, stranger.username)).rejects.toBeInstanceOf(NotFound);
    await expect(inviteToGroup(t.db, owner.id, group.id, "nobody_here_123")).rejects.toMatchObject({ status: 404, message: "Пользователь не найден" });
    await expect(inviteToGroup(t.db, owner.id, group.id, member.username)).rejects.toBeInstanceOf(Conflict);
    await blockMember(t.db, blocker, owner.id);
    await expect(inviteToGroup(t.db, owner.id, group.id, blocker.username)).rejects.toBeInstanceOf(Forbidden);
    await expect(inviteToGroup(t.db, owner.id, 2_147_483_648, member.username)).rejects.toBeInstanceOf(NotFound);
  });

  it("a member invited into a group with history starts with nothing unread, then counts what comes after", async () => {
    const [owner, chatter, newcomer] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [chatter]);
    for (const body of ["Старое 1", "Старое 2", "Старое 3"]) await sendMessage(t.db, chatter.id, "group", group.id, { body });
    await inviteToGroup(t.db, owner.id, group.id, newcomer.username);
    expect(await getUnreadRecord(t.db, newcomer.id)).toEqual({ personal: [], group: [] });
    expect((await listConversations(t.db, newcomer.id, "group", firstPage)).items[0]).toMatchObject({ id: group.id, unreadMessages: 0 });
    await sendMessage(t.db, chatter.id, "group", group.id, { body: "Новое" });
    expect((await getUnreadRecord(t.db, newcomer.id)).group).toEqual([{ conversationId: group.id, unreadMessages: 1, processed: true }]);
  });

  it("a group holds at most 100 members, the owner included", async () => {
    const owner = await makeUser(t.db);
    const group = await createGroupConversation(t.db, owner.id, { name: "Большая беседа" });
    const people = await Promise.all(Array.from({ length: CHAT_LIMITS.groupSize }, () => makeUser(t.db)));
    for (const person of people.slice(0, CHAT_LIMITS.groupSize - 1)) await inviteToGroup(t.db, owner.id, group.id, person.username);
    await expect(inviteToGroup(t.db, owner.id, group.id, people.at(-1)!.username)).rejects.toMatchObject({ status: 409, code: "group_full" });
    expect((await getConversation(t.db, owner.id, "group", group.id)).memberCount).toBe(100);
  });

  it("110 invites at once never take a group past 100 members (four groups racing)", async () => {
    // Members written in one statement (password hashing is not what this is about); four
    // groups race at once so that, on PostgreSQL, invites overlap at the limit.
    const stamp = Date.now().toString(36);
    const invitees = await t.db
      .insert(users)
      .values(Array.from({ length: 440 }, (_, i) => ({ username: `race_${stamp}_${i}`, email: `race_${stamp}_${i}@example.test` })))
      .returning({ username: users.username });
    const owners = await Promise.all(Array.from({ length: 4 }, () => makeUser(t.db)));
    const groups = await Promise.all(owners.map((owner, i) => createGroupConversation(t.db, owner.id, { name: `Гонка приглашений ${i}` })));
    const results = await Promise.allSettled(invitees.map((invitee, i) => inviteToGroup(t.db, owners[i % 4]!.id, groups[i % 4]!.id, invitee.username)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => (r.reason as { code?: string }).code)).toEqual(Array(44).fill("group_full"));
    for (const group of groups) {
      const members = await t.db.select().from(conversationMembers).where(eq(conversationMembers.conversationId, group.id));
      expect(members).toHaveLength(CHAT_LIMITS.groupSize);
    }
  });

  it("only the owner removes members; the removed member loses the group and its channel event is published", async () => {
    const [owner, a, b, stranger] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [a, b]);
    await expect(removeFromGroup(t.db, a.id, group.id, b.id)).rejects.toMatchObject({
      status: 403,
      message: "Удалять участников может только владелец беседы",
    });
    await expect(removeFromGroup(t.db, stranger.id, group.id, b.id)).rejects.toBeInstanceOf(NotFound);
    await expect(removeFromGroup(t.db, owner.id, group.id, stranger.id)).rejects.toMatchObject({ code: "member_not_found" });
    const events = await eventsDuring(t.db, "conversation.member_removed", () => removeFromGroup(t.db, owner.id, group.id, b.id));
    expect(events).toEqual([{ type: "conversation.member_removed", conversationId: group.id, userId: b.id }]);
    await expect(getConversation(t.db, b.id, "group", group.id)).rejects.toBeInstanceOf(NotFound);
    expect((await listConversations(t.db, b.id, "group", firstPage)).items).toEqual([]);
  });

  it("when the owner leaves, the earliest-joined member owns the group; the last one out deletes it", async () => {
    const [owner, first, second] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [first, second]);
    const events = await eventsDuring(t.db, "conversation.member_removed", () => leaveGroup(t.db, owner.id, group.id));
    expect(events).toEqual([{ type: "conversation.member_removed", conversationId: group.id, userId: owner.id }]);
    const detail = await getConversation(t.db, first.id, "group", group.id);
    expect(detail).toMatchObject({ ownerId: first.id, memberCount: 2 });
    await inviteToGroup(t.db, first.id, group.id, owner.username);
    await leaveGroup(t.db, second.id, group.id);
    await leaveGroup(t.db, owner.id, group.id);
    await expect(leaveGroup(t.db, owner.id, group.id)).rejects.toBeInstanceOf(NotFound);
    await leaveGroup(t.db, first.id, group.id);
    expect(await t.db.select().from(conversations).where(eq(conversations.id, group.id))).toEqual([]);
  });

  it("a member sees only their own groups, newest activity first, without the public conversation", async () => {
    const [owner, member, outsider] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const older = await groupWith(t.db, owner, [member], "Старая беседа");
    const newer = await groupWith(t.db, owner, [member], "Новая беседа");
    await groupWith(t.db, outsider, [], "Чужая беседа");
    await sendMessage(t.db, member.id, "group", older.id, { body: "Поднимаю старую беседу" });
    const list = await listConversations(t.db, owner.id, "group", firstPage);
    expect(list.items.map((c) => c.name)).toEqual(["Старая беседа", "Новая беседа"]);
    expect(list).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(list.items[0]).toMatchObject({ unreadMessages: 1, memberCount: 2, lastMessage: { body: "Поднимаю старую беседу", author: { id: member.id } } });
    expect(list.items[1]).toMatchObject({ id: newer.id, unreadMessages: 0, lastMessage: null });
    await expect(getConversation(t.db, outsider.id, "group", older.id)).rejects.toBeInstanceOf(NotFound);
    await expect(getConversation(t.db, owner.id, "personal", older.id)).rejects.toBeInstanceOf(NotFound);
  });

  it("listing 10 conversations costs as many queries as listing 1", async () => {
    const viewer = await makeUser(t.db);
    const others = await Promise.all(Array.from({ length: 10 }, () => makeUser(t.db)));
    const one = await groupWith(t.db, viewer, [others[0]!], "Первая");
    await sendMessage(t.db, others[0]!.id, "group", one.id, { body: "Привет" });
    const personal = await getOrCreatePersonalConversation(t.db, others[0]!.id, viewer.id);
    await sendMessage(t.db, others[0]!.id, "personal", personal.id, { body: "Привет лично" });
    const queriesForOne = {
      group: await queriesOf(t.db, () => listConversations(t.db, viewer.id, "group", firstPage)),
      personal: await queriesOf(t.db, () => listConversations(t.db, viewer.id, "personal", firstPage)),
    };
    for (const [i, other] of others.slice(1).entries()) {
      const group = await groupWith(t.db, viewer, [other], `Беседа ${i}`);
      const first = await sendMessage(t.db, other.id, "group", group.id, { body: `Сообщение ${i}` });
      await sendMessage(t.db, viewer.id, "group", group.id, { body: "Ответ", replyToId: first.id });
      const chat = await getOrCreatePersonalConversation(t.db, viewer.id, other.id);
      await sendMessage(t.db, other.id, "personal", chat.id, { body: `Лично ${i}` });
    }
    const group = await listConversations(t.db, viewer.id, "group", firstPage);
    expect(group.items).toHaveLength(10);
    expect(group.items[0]!.lastMessage?.replyTo).toMatchObject({ excerpt: "Сообщение 8" });
    expect(await queriesOf(t.db, () => listConversations(t.db, viewer.id, "group", firstPage))).toBeLessThanOrEqual(queriesForOne.group + 1);
    expect(await queriesOf(t.db, () => listConversations(t.db, viewer.id, "personal", firstPage))).toBe(queriesForOne.personal);
  });
});

describe(`personal conversations on ${engine}`, () => {
  it("one conversation per pair, whoever opens it and however many times at once", async () => {
    const [a, b] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const results = await Promise.all([
      getOrCreatePersonalConversation(t.db, a.id, b.id),
      getOrCreatePersonalConversation(t.db, b.id, a.id),
      getOrCreatePersonalConversation(t.db, a.id, b.id),
      getOrCreatePersonalConversation(t.db, b.id, a.id),
    ]);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const detail = await getConversation(t.db, b.id, "personal", results[0]!.id);
    expect(detail).toMatchObject({ kind: "personal", name: a.username, peer: { id: a.id }, ownerId: null, memberCount: 2 });
    expect(detail.members.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("refuses oneself, unknown members and blocks either way, in Russian", async () => {
    const [a, b, c] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    await expect(getOrCreatePersonalConversation(t.db, a.id, a.id)).rejects.toMatchObject({ status: 400, message: "Нельзя написать самому себе" });
    await expect(getOrCreatePersonalConversation(t.db, a.id, 99_999_999)).rejects.toMatchObject({ status: 404, message: "Пользователь не найден" });
    await expect(getOrCreatePersonalConversation(t.db, a.id, -1)).rejects.toBeInstanceOf(NotFound);
    await blockMember(t.db, b, a.id);
    await expect(getOrCreatePersonalConversation(t.db, a.id, b.id)).rejects.toMatchObject({ status: 403, message: "Вы не можете написать этому пользователю" });
    await expect(getOrCreatePersonalConversation(t.db, b.id, a.id)).rejects.toBeInstanceOf(Forbidden);
    expect(await getOrCreatePersonalConversation(t.db, a.id, c.id)).toHaveProperty("id");
  });

  it("lists only personal conversations that have a message", async () => {
    const [a, b, c] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    await getOrCreatePersonalConversation(t.db, a.id, b.id);
    const withC = await getOrCreatePersonalConversation(t.db, a.id, c.id);
    expect((await listConversations(t.db, a.id, "personal", firstPage)).items).toEqual([]);
    await sendMessage(t.db, c.id, "personal", withC.id, { body: "Привет, актуально?" });
    const list = await listConversations(t.db, a.id, "personal", firstPage);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: withC.id, name: c.username, peer: { id: c.id }, unreadMessages: 1 });
    expect(await listConversations(t.db, c.id, "personal", firstPage)).toMatchObject({ total: 1, items: [{ name: a.username, unreadMessages: 0 }] });
  });
});

describe(`the public conversation on ${engine}`, () => {
  it("every member opens it as a group; it has no members list and no unread count", async () => {
    const [a, b] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const id = await getPublicConversationId(t.db);
    await sendMessage(t.db, a.id, "group", id, { body: "Всем привет!" });
    const detail = await getConversation(t.db, b.id, "group", id);
    expect(detail).toMatchObject({ kind: "public", name: "Общий чат", members: [], unreadMessages: 0, lastMessage: { body: "Всем привет!" } });
    await expect(getConversation(t.db, b.id, "personal", id)).rejects.toBeInstanceOf(NotFound);
    expect((await listConversations(t.db, b.id, "group", firstPage)).items.map((c) => c.id)).not.toContain(id);
  });
});
