/**
 * Conversations (issue 4; docs/product/conversations.md): private named groups with an owner and
 * up to 100 members, personal conversations (one per pair of members) and the site-wide public
 * conversation every member may read and write.
 *
 * URLs and realtime channels know two kinds, "group" and "personal" (docs/product/conversations.md#kinds); the public
 * conversation is addressed as a group. Someone else's conversation answers NotFound exactly
 * like one that does not exist (docs/product/engineering.md#private-resources-answer-404). Membership changes run in a transaction that
 * first locks the conversation row, so concurrent invites, removals and leaves queue up and the
 * size limit holds; `conversation.member_removed` is published after the commit.
 *
 * Messages, history and read markers live in messages.server.ts; who may open what, in access.server.ts.
 */
import { and, asc, count, desc, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { blocks, conversationMembers, conversations, messages, users } from "~/db/schema";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { consumeLimit } from "~/lib/rate-limit.server";
import { toUserRefDto, type UserRow } from "../users/users.server";
import {
  assertNotBlocked,
  conversationNotFound,
  lastMessagesOf,
  latestMessageIdSql,
  orInvalid,
  requireConversation,
  type AddressKind,
  type ConversationRow,
} from "./access.server";
import { loadMessageContext, toMessageDto } from "./mapper.server";
import { CreateGroupSchema, InviteSchema } from "./schemas";
import { CHAT_LIMITS, type ConversationDetailDto, type ConversationDto } from "./types";

const publicIds = new WeakMap<Db, number>();

/** The id of the site-wide public conversation ("Общий чат", inserted by migration 0005); cached per database. */
export async function getPublicConversationId(db: Db): Promise<number> {
  const cached = publicIds.get(db);
  if (cached !== undefined) return cached;
  const [row] = await db.select({ id: conversations.id }).from(conversations).where(eq(conversations.kind, "public")).limit(1);
  if (!row) throw new Error("the public conversation is missing (migration 0005 inserts it)");
  publicIds.set(db, row.id);
  return row.id;
}

/**
 * `ownerId` creates a group conversation named `input.name` (trimmed, 1-100 characters) with
 * themselves as owner and first member, in one transaction. Returns it as the owner sees it.
 * Throws ValidationFailed (`invalid_input`) for a bad name (docs/product/conversations.md#group-conversations), RateLimited
 * (429) past 10 new groups an hour (docs/product/limits.md#rate-limits).
 */
export async function createGroupConversation(db: Db, ownerId: number, input: { name: string }): Promise<ConversationDto> {
  const { name } = orInvalid(CreateGroupSchema.safeParse(input));
  await consumeLimit(db, "groups", String(ownerId), "Слишком много новых групп подряд. Попробуйте позже.");
  const conversation = await db.transaction(async (tx) => {
    const [row] = await tx.insert(conversations).values({ kind: "group", name, ownerId }).returning();
    // Like an invited member, the creator starts read up to the latest message: a new group has none, so 0.
    await tx.insert(conversationMembers).values({ conversationId: row!.id, userId: ownerId, lastReadMessageId: 0 });
    return row!;
  });
  const [dto] = await toConversationDtos(db, ownerId, [{ conversation, memberCount: 1, unread: 0 }]);
  return dto!;
}

/**
 * Locks group `conversationId` for the rest of transaction `tx` (SELECT … FOR UPDATE) and
 * returns it with `actorId`'s membership, so membership changes of one group queue up.
 * Throws NotFound (`conversation_not_found`) unless it is a group the actor belongs to.
 */
async function lockGroup(tx: Db, actorId: number, conversationId: number): Promise<ConversationRow> {
  if (!isValidId(conversationId)) throw conversationNotFound();
  const [conversation] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.kind, "group")))
    .for("update");
  if (!conversation || !(await isMember(tx, conversationId, actorId))) throw conversationNotFound();
  return conversation;
}

async function isMember(db: Db, conversationId: number, userId: number): Promise<boolean> {
  if (!isValidId(userId)) return false;
  const [row] = await db
    .select({ userId: conversationMembers.userId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/**
 * The owner `actorId` invites member `username` (case-insensitive, a leading "@" allowed) into
 * group `conversationId`; the newcomer's read marker starts at the group's latest message, so
 * its history does not count as unread. At most CHAT_LIMITS.groupSize members, the owner
 * included, counted under the conversation's row lock, so parallel invites never pass the limit
 * (docs/product/conversations.md#group-conversations). A member who blocked the owner cannot be invited (docs/product/accounts.md#follows-and-blocks).
 * Throws ValidationFailed (`invalid_input`); NotFound (`conversation_not_found` when the actor
 * is not in the group, `user_not_found` «Пользователь не найден»); Forbidden (`not_owner`,
 * `blocked`); Conflict (`already_member`, `group_full`).
 */
export async function inviteToGroup(db: Db, actorId: number, conversationId: number, username: string): Promise<void> {
  const input = orInvalid(InviteSchema.safeParse({ username }));
  await db.transaction(async (tx) => {
    const conversation = await lockGroup(tx, actorId, conversationId);
    if (conversation.ownerId !== actorId) {
      throw new Forbidden("Приглашать участников может только владелец беседы", "not_owner");
    }
    const [invitee] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${input.username})`)
      .limit(1);
    if (!invitee) throw new NotFound("Пользователь не найден", "user_not_found");
    if (await isMember(tx, conversation.id, invitee.id)) throw new Conflict("Пользователь уже в беседе", "already_member");
    const [blocked] = await tx
      .select({ blockerId: blocks.blockerId })
      .from(blocks)
      .where(and(eq(blocks.blockerId, invitee.id), eq(blocks.blockedId, actorId)))
      .limit(1);
    if (blocked) throw new Forbidden("Пользователь ограничил возможность приглашать его в беседы", "blocked");
    const [members] = await tx.select({ value: count() }).from(conversationMembers).where(eq(conversationMembers.conversationId, conversation.id));
    if ((members?.value ?? 0) >= CHAT_LIMITS.groupSize) {
      throw new Conflict(`В беседе уже ${CHAT_LIMITS.groupSize} участников — больше пригласить нельзя`, "group_full");
    }
    // The newcomer starts read up to the latest message: the group's history is not news to them.
    await tx.insert(conversationMembers).values({
      conversationId: conversation.id,
      userId: invitee.id,
      lastReadMessageId: latestMessageIdSql(conversation.id),
    });
  });
}

/**
 * The owner `actorId` removes member `userId` from group `conversationId`; removing oneself is
 * leaving (leaveGroup). Publishes `conversation.member_removed` after the commit, so the member's
 * open realtime subscriptions to the group end.
 * Throws NotFound (`conversation_not_found`, `member_not_found`) and Forbidden (`not_owner`).
 */
export async function removeFromGroup(db: Db, actorId: number, conversationId: number, userId: number): Promise<void> {
  if (userId === actorId) return leaveGroup(db, actorId, conversationId);
  await db.transaction(async (tx) => {
    const conversation = await lockGroup(tx, actorId, conversationId);
    if (conversation.ownerId !== actorId) {
      throw new Forbidden("Удалять участников может только владелец беседы", "not_owner");
    }
    const removed = isValidId(userId)
      ? await tx
          .delete(conversationMembers)
          .where(and(eq(conversationMembers.conversationId, conversation.id), eq(conversationMembers.userId, userId)))
          .returning({ userId: conversationMembers.userId })
      : [];
    if (removed.length === 0) throw new NotFound("Участник не найден", "member_not_found");
  });
  eventBus(db).publish({ type: "conversation.member_removed", conversationId, userId });
}

/**
 * Member `userId` leaves group `conversationId`. When the owner leaves, ownership passes to the
 * earliest-joined remaining member; when the last member leaves, the group is deleted with its
 * messages. Publishes `conversation.member_removed` after the commit.
 * Throws NotFound (`conversation_not_found`) unless the member is in that group.
 */
export async function leaveGroup(db: Db, userId: number, conversationId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const conversation = await lockGroup(tx, userId, conversationId);
    await tx.delete(conversationMembers).where(and(eq(conversationMembers.conversationId, conversation.id), eq(conversationMembers.userId, userId)));
    const [heir] = await tx
      .select({ userId: conversationMembers.userId })
      .from(conversationMembers)
      .where(eq(conversationMembers.conversationId, conversation.id))
      .orderBy(asc(conversationMembers.joinedAt), asc(conversationMembers.userId))
      .limit(1);
    if (!heir) {
      await tx.delete(conversations).where(eq(conversations.id, conversation.id));
    } else if (conversation.ownerId === userId || conversation.ownerId === null) {
      await tx.update(conversations).set({ ownerId: heir.userId }).where(eq(conversations.id, conversation.id));
    }
  });
  eventBus(db).publish({ type: "conversation.member_removed", conversationId, userId });
}

/**
 * The personal conversation of `userId` and `otherUserId`, created with both memberships when
 * missing. Race-safe: the insert does nothing when the pair already has one
 * (conversations_personal_pair_key), and the id is then read back, so two members opening it
 * at once get the same conversation. Returns `{id}`.
 * Throws ValidationFailed (`cannot_message_self`, «Нельзя написать самому себе»), NotFound
 * (`profile_not_found`), Forbidden (`blocked`) when either blocked the other (docs/product/accounts.md#follows-and-blocks),
 * RateLimited (429) past 30 new personal conversations an hour (docs/product/limits.md#rate-limits).
 */
export async function getOrCreatePersonalConversation(db: Db, userId: number, otherUserId: number): Promise<{ id: number }> {
  if (userId === otherUserId) throw new ValidationFailed("Нельзя написать самому себе", undefined, "cannot_message_self");
  const [other] = isValidId(otherUserId) ? await db.select({ id: users.id }).from(users).where(eq(users.id, otherUserId)).limit(1) : [];
  if (!other) throw new NotFound("Пользователь не найден", "profile_not_found");
  await assertNotBlocked(db, userId, other.id);
  const [low, high] = userId < other.id ? [userId, other.id] : [other.id, userId];
  const pair = and(eq(conversations.kind, "personal"), eq(conversations.personalLowId, low), eq(conversations.personalHighId, high));
  const [existing] = await db.select({ id: conversations.id }).from(conversations).where(pair).limit(1);
  if (existing) return existing;
  // Only new conversations count: opening an existing one is never limited.
  await consumeLimit(db, "conversationStarts", String(userId), "Слишком много новых личных переписок подряд. Попробуйте позже.");
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(conversations)
      .values({ kind: "personal", personalLowId: low, personalHighId: high })
      .onConflictDoNothing()
      .returning({ id: conversations.id });
    if (created) {
      await tx.insert(conversationMembers).values([
        { conversationId: created.id, userId: low },
        { conversationId: created.id, userId: high },
      ]);
      return created;
    }
    // A concurrent call created it first and has committed (the insert waited for it).
    const [found] = await tx.select({ id: conversations.id }).from(conversations).where(pair).limit(1);
    if (!found) throw new Error("personal conversation vanished after a conflicting insert");
    return found;
  });
}

/** A conversation row with the viewer's counts, ready for toConversationDtos. */
interface ConversationSummary {
  conversation: ConversationRow;
  memberCount: number;
  unread: number;
}

/** The viewer's memberships with member counts and exact unread counts (one query with subqueries). */
function selectSummaries(db: Db, viewerId: number, where: SQL | undefined) {
  return db
    .select({
      conversation: conversations,
      memberCount: sql<number>`(select count(*) from ${conversationMembers} as cm_count where cm_count.conversation_id = ${conversations.id})`.mapWith(Number),
      unread: sql<number>`(select count(*) from ${messages} as m_unread
        where m_unread.conversation_id = ${conversations.id}
          and m_unread.id > ${conversationMembers.lastReadMessageId}
          and m_unread.author_id <> ${viewerId}
          and m_unread.deleted_at is null)`.mapWith(Number),
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(and(eq(conversationMembers.userId, viewerId), where));
}

/** The condition of `kind`'s list: groups without the public one; personal ones that have a message. */
function listCondition(kind: AddressKind): SQL {
  return kind === "group" ? eq(conversations.kind, "group") : and(eq(conversations.kind, "personal"), isNotNull(conversations.lastMessageAt))!;
}

/** Newest activity first: the last message, or the creation of a conversation without one. */
const byActivity = [desc(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`), desc(conversations.id)];

/**
 * Summaries to DTOs for `viewerId`: the last messages in one query, then their quoted messages,
 * their authors and the personal peers in at most two more.
 */
async function toConversationDtos(db: Db, viewerId: number, summaries: ConversationSummary[], known: UserRow[] = []): Promise<ConversationDto[]> {
  if (summaries.length === 0) return [];
  const lastRows = await lastMessagesOf(
    db,
    summaries.map((summary) => summary.conversation.id),
  );
  const peerOf = (conversation: ConversationRow) =>
    conversation.kind !== "personal" ? null : conversation.personalLowId === viewerId ? conversation.personalHighId : conversation.personalLowId;
  const peerIds = summaries.map((summary) => peerOf(summary.conversation)).filter((id): id is number => id !== null);
  const context = await loadMessageContext(db, lastRows, peerIds, known);
  const lastByConversation = new Map(lastRows.map((row) => [row.conversationId, row]));
  return summaries.map(({ conversation, memberCount, unread }) => {
    const peerId = peerOf(conversation);
    const peer = peerId === null ? undefined : context.users.get(peerId);
    const last = lastByConversation.get(conversation.id);
    return {
      id: conversation.id,
      kind: conversation.kind,
      name: conversation.kind === "personal" ? (peer?.username ?? "") : (conversation.name ?? ""),
      peer: peer ? toUserRefDto(peer) : null,
      ownerId: conversation.ownerId,
      memberCount,
      lastMessage: last ? toMessageDto(last, context) : null,
      unreadMessages: conversation.kind === "public" ? 0 : unread,
    };
  });
}

/**
 * Page `page` of `userId`'s conversations of `kind`, newest activity first, each with its last
 * message and the member's exact unread count. Groups: the member's groups, without the public
 * conversation; personal: only those with at least one message
 * (docs/product/conversations.md#personal-conversations: created on first message). Five queries at most, whatever the page size.
 */
export async function listConversations(db: Db, userId: number, kind: AddressKind, page: PageParams): Promise<Page<ConversationDto>> {
  const condition = listCondition(kind);
  const [summaries, [total]] = await Promise.all([
    selectSummaries(db, userId, condition)
      .orderBy(...byActivity)
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage),
    db
      .select({ value: count() })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      .where(and(eq(conversationMembers.userId, userId), condition)),
  ]);
  return toPage(await toConversationDtos(db, userId, summaries), total?.value ?? 0, page);
}

/**
 * Conversation `id` for `viewerId` with its members, earliest-joined first. Kind "group" also
 * opens the public conversation: its members list is empty (everyone) and memberCount counts
 * every member of the site; it has no unread count (0).
 * Throws NotFound (`conversation_not_found`) for an unknown id, another kind, or a conversation
 * the viewer is not in.
 */
export async function getConversation(db: Db, viewerId: number, kind: AddressKind, id: number): Promise<ConversationDetailDto> {
  const { conversation } = await requireConversation(db, viewerId, kind, id);
  if (conversation.kind === "public") {
    const [everyone] = await db.select({ value: count() }).from(users);
    const [dto] = await toConversationDtos(db, viewerId, [{ conversation, memberCount: everyone?.value ?? 0, unread: 0 }]);
    return { ...dto!, members: [], peerReadUpTo: null };
  }
  const [summaries, memberRows] = await Promise.all([
    selectSummaries(db, viewerId, eq(conversations.id, conversation.id)),
    db
      .select({ user: users, lastRead: conversationMembers.lastReadMessageId })
      .from(conversationMembers)
      .innerJoin(users, eq(users.id, conversationMembers.userId))
      .where(eq(conversationMembers.conversationId, conversation.id))
      .orderBy(asc(conversationMembers.joinedAt), asc(conversationMembers.userId)),
  ]);
  if (summaries.length === 0) throw conversationNotFound();
  const members = memberRows.map((row) => row.user);
  const [dto] = await toConversationDtos(db, viewerId, summaries, members);
  const peer = conversation.kind === "personal" ? memberRows.find((row) => row.user.id !== viewerId) : undefined;
  return { ...dto!, members: members.map(toUserRefDto), peerReadUpTo: conversation.kind === "personal" ? (peer?.lastRead ?? 0) : null };
}
