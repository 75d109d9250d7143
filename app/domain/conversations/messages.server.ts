/**
 * Messages (issue 4; docs/product/conversations.md#messages, docs/product/limits.md#conversation-limits): writing, editing and soft-deleting
 * by the author, history loaded upwards, read markers and exact unread counts.
 *
 * Unread: a member's unread messages in a conversation are the messages by others, not
 * deleted, with an id above the member's read marker (conversation_members.last_read_message_id).
 * The marker only moves forward. The public conversation has no members and no unread counts.
 *
 * Events go out after the transaction commits (docs/product/engineering.md#events-after-commit): message.created carries the
 * recipients (every member but the author; none in the public conversation) and, in the public
 * conversation, the mentioned members; realtime.server.ts turns them into channel frames.
 */
import { randomBytes } from "node:crypto";
import { and, count, desc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversationMembers, conversations, messages, users } from "~/db/schema";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { processPostImage } from "~/lib/images/post-image.server";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { consumeLimit } from "~/lib/rate-limit.server";
import type { FileStorage } from "~/lib/storage/storage.server";
import { mentionTargets } from "../mentions/mentions.server";
import { assertMayPublish } from "../moderation/sanctions.server";
import { IMAGE_RATE_MESSAGE } from "../uploads/post-images.server";
import type { UserRow } from "../users/users.server";
import {
  assertNotBlocked,
  channelKindOf,
  lastMessagesOf,
  latestMessageIdSql,
  memberIdsExcept,
  newestMessagesFirst,
  orInvalid,
  requireConversation,
  type AddressKind,
  type ConversationRow,
} from "./access.server";
import { loadMessageContext, toMessageDto, toMessageDtos, type MessageRow } from "./mapper.server";
import { MessageBodySchema, MessageTextSchema } from "./schemas";
import type { MessageDto, MessageHistoryDto, UnreadItem, UnreadRecordDto } from "./types";

/** History pages: 30 messages when the request names no limit. */
export const HISTORY_DEFAULT_LIMIT = 30;
/** The largest history page one request may ask for (messages); larger limits are clamped to it. */
export const HISTORY_MAX_LIMIT = 100;

/** The Russian message of the message rate limit (docs/product/limits.md#rate-limits: 20 messages per 30 s). */
export const MESSAGE_RATE_MESSAGE = "Слишком много сообщений: не больше 20 за 30 секунд. Подождите немного.";

const messageNotFound = () => new NotFound("Сообщение не найдено", "message_not_found");

function checkBody(body: unknown): string {
  return orInvalid(MessageBodySchema.safeParse(body), "body");
}

/** The text beside a picture: as checkBody, but it may be empty. */
function checkText(body: unknown): string {
  return orInvalid(MessageTextSchema.safeParse(body ?? ""), "body");
}

/** A picture attached to a new message: the uploaded bytes and where to store them. */
export interface MessageImageUpload {
  bytes: Uint8Array;
  storage: FileStorage;
}

/**
 * History of conversation `conversationId` for `viewerId` (kind "group" includes the public
 * conversation): the newest `opts.limit` (default 30, 1-100) messages with an id below
 * `opts.before` (all when absent), oldest first, deleted ones included as `deleted: true`.
 * `before` in the answer is the cursor for the page above, null when this page holds the first
 * message. Four queries at most.
 * Throws NotFound (`conversation_not_found`) for a conversation the viewer cannot open.
 */
export async function listMessages(
  db: Db,
  viewerId: number,
  kind: AddressKind,
  conversationId: number,
  opts: { before?: number; limit?: number } = {},
): Promise<MessageHistoryDto> {
  const { conversation } = await requireConversation(db, viewerId, kind, conversationId);
  const limit = Math.max(1, Math.min(Math.trunc(opts.limit ?? HISTORY_DEFAULT_LIMIT), HISTORY_MAX_LIMIT));
  const before = opts.before !== undefined && isValidId(opts.before) ? opts.before : undefined;
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversation.id), before === undefined ? undefined : lt(messages.id, before)))
    .orderBy(newestMessagesFirst)
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit).reverse();
  if (page.length === 0) return { messages: [], before: null };
  // The viewer is loaded with the authors: moderators and authors read messages hidden by reports (issue 10).
  const context = await loadMessageContext(db, page, [viewerId]);
  const viewer = context.users.get(viewerId) ?? null;
  return { messages: page.map((row) => toMessageDto(row, context, viewer)), before: more ? page[0]!.id : null };
}

/**
 * The latest message of each of `viewerId`'s conversations of `kind`, newest first, paged
 * (10 a page by default, at most 50). Groups are the member's own, without the public
 * conversation (as listConversations). Four queries at most.
 */
export async function listLatestMessages(db: Db, viewerId: number, kind: AddressKind, page: PageParams): Promise<Page<MessageDto>> {
  const mine = and(eq(conversationMembers.userId, viewerId), eq(conversations.kind, kind), isNotNull(conversations.lastMessageAt));
  const [ids, [total]] = await Promise.all([
    db
      .select({ id: conversations.id })
      .from(conversationMembers)
      .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
      .where(mine)
      .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage),
    db.select({ value: count() }).from(conversationMembers).innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId)).where(mine),
  ]);
  const rows = await lastMessagesOf(
    db,
    ids.map((row) => row.id),
  );
  rows.sort((a, b) => b.id - a.id);
  return toPage(await toMessageDtos(db, rows), total?.value ?? 0, page);
}

/** The name a message event carries: the group's, or for a personal conversation the author's (what the recipient sees). */
function eventName(conversation: ConversationRow, author: UserRow): string {
  return conversation.kind === "personal" ? author.username : (conversation.name ?? "");
}

/**
 * `authorId` writes `input.body` (trimmed, 1-4000 characters; 0-4000 beside a picture) in
 * conversation `conversationId` (kind "group" includes the public conversation), optionally
 * replying to `input.replyToId`, a message of the same conversation, optionally with the
 * picture `input.image` (issue 14): processed like post pictures (10 MB, jpeg/png/webp/gif/avif,
 * stored as WebP under `chat/{authorId}/{random}.webp`) and counted against the image-upload
 * limit (docs/product/limits.md#rate-limits). In one transaction: inserts the message, moves the
 * conversation's last_message_at and the author's read marker to it. Then publishes
 * `message.created` with the conversation `{id, kind, name}`, the recipients (every member but
 * the author; none in the public conversation) and, in the public conversation, the mentioned
 * members (at most 10, not blocking the author). Returns the message.
 * Throws ValidationFailed (`invalid_input`; `reply_not_found`; field `image`: `image_empty`,
 * `image_too_large`, `image_unsupported_type`), NotFound
 * (`conversation_not_found`), Forbidden (`blocked`) in a personal conversation where either
 * member blocked the other, MemberMuted / AccountSuspended while the author is sanctioned
 * (docs/product/moderation.md#suspension-and-mute), RateLimited (20 messages per 30 s, docs/product/limits.md#rate-limits).
 */
export async function sendMessage(
  db: Db,
  authorId: number,
  kind: AddressKind,
  conversationId: number,
  input: { body?: string; replyToId?: number | null; image?: MessageImageUpload | null },
): Promise<MessageDto> {
  const upload = input.image ?? null;
  const body = upload ? checkText(input.body) : checkBody(input.body);
  // The conversation, the author's sanctions and the author's row are read side by side (on
  // PostgreSQL, concurrent round trips: every one of a message's round trips is in its latency,
  // bench/fanout); a refusal is still the first in this order, however the reads finish.
  const [access, sanctions, authorRows] = await Promise.allSettled([
    requireConversation(db, authorId, kind, conversationId),
    assertMayPublish(db, authorId),
    db.select().from(users).where(eq(users.id, authorId)).limit(1),
  ]);
  if (access.status === "rejected") throw access.reason;
  if (sanctions.status === "rejected") throw sanctions.reason;
  if (authorRows.status === "rejected") throw authorRows.reason;
  const { conversation } = access.value;
  const author = authorRows.value[0]!;
  if (conversation.kind === "personal") {
    const peerId = conversation.personalLowId === authorId ? conversation.personalHighId! : conversation.personalLowId!;
    await assertNotBlocked(db, authorId, peerId);
  }
  const replyToId = input.replyToId ?? null;
  if (replyToId !== null) {
    const [quoted] = isValidId(replyToId)
      ? await db.select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.id, replyToId)).limit(1)
      : [];
    if (!quoted || quoted.conversationId !== conversation.id) {
      throw new ValidationFailed("Сообщение, на которое вы отвечаете, не найдено", { replyToId: ["Сообщение не найдено"] }, "reply_not_found");
    }
  }
  // The picture is checked before any limit is counted: a refused file costs nothing.
  const picture = upload ? await processPostImage(upload.bytes) : null;
  await consumeLimit(db, "messages", String(authorId), MESSAGE_RATE_MESSAGE);
  let image: { imageUrl: string; imageWidth: number; imageHeight: number } | null = null;
  if (upload && picture) {
    await consumeLimit(db, "imageUploads", String(authorId), IMAGE_RATE_MESSAGE);
    const key = `chat/${authorId}/${randomBytes(12).toString("hex")}.webp`;
    await upload.storage.put(key, picture.bytes, picture.contentType);
    image = { imageUrl: upload.storage.publicUrl(key), imageWidth: picture.width, imageHeight: picture.height };
  }

  // One statement, so one round trip (every one is in a message's latency, bench/fanout;
  // docs/decisions/0055-a-message-in-one-statement.md): the insert, the conversation's
  // last-message time and the author's read marker commit together. now() is the statement's
  // start, the message's created_at; greatest keeps a later one that committed first. The
  // updates run whether or not the select reads them.
  const inserted = db.$with("inserted").as(
    db
      .insert(messages)
      .values({ conversationId: conversation.id, authorId, body, replyToId, ...image })
      .returning(),
  );
  const touched = db.$with("touched").as(
    db
      .update(conversations)
      .set({ lastMessageAt: sql`greatest(coalesce(${conversations.lastMessageAt}, now()), now())` })
      .where(eq(conversations.id, conversation.id))
      .returning({ id: conversations.id }),
  );
  const read = db.$with("read").as(
    db
      .update(conversationMembers)
      .set({ lastReadMessageId: sql`greatest(${conversationMembers.lastReadMessageId}, (select "id" from "inserted"))` })
      .where(and(eq(conversationMembers.conversationId, conversation.id), eq(conversationMembers.userId, authorId)))
      .returning({ userId: conversationMembers.userId }),
  );
  const [row] = await db
    .with(inserted, touched, ...(conversation.kind === "public" ? [] : [read]))
    .select()
    .from(inserted);

  const [[message], recipientIds, mentionedUserIds] = await Promise.all([
    toMessageDtos(db, [row!], [author]),
    conversation.kind === "public" ? Promise.resolve([]) : memberIdsExcept(db, conversation.id, authorId),
    conversation.kind === "public" ? mentionTargets(db, authorId, body) : Promise.resolve([]),
  ]);
  eventBus(db).publish({
    type: "message.created",
    message: message!,
    conversation: { id: conversation.id, kind: conversation.kind, name: eventName(conversation, author) },
    recipientIds,
    mentionedUserIds,
  });
  return message!;
}

/**
 * Message `messageId` with its conversation, when `actorId` may see it (a member, or anyone in
 * the public conversation). Throws NotFound (`message_not_found`) otherwise.
 */
async function requireVisibleMessage(db: Db, actorId: number, messageId: number): Promise<{ message: MessageRow; conversation: ConversationRow }> {
  const [row] = isValidId(messageId)
    ? await db
        .select({ message: messages, conversation: conversations, memberId: conversationMembers.userId })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .leftJoin(conversationMembers, and(eq(conversationMembers.conversationId, messages.conversationId), eq(conversationMembers.userId, actorId)))
        .where(eq(messages.id, messageId))
        .limit(1)
    : [];
  if (!row || (row.conversation.kind !== "public" && row.memberId === null)) throw messageNotFound();
  return row;
}

/**
 * The author `actorId` replaces the text of message `messageId` with `body` (trimmed, 1-4000
 * characters) and marks it edited; publishes `message.updated`. Returns the message.
 * Throws ValidationFailed (`invalid_input`), NotFound (`message_not_found`, also for a message
 * in a conversation the actor is not in), Forbidden (`not_author`, «Можно изменить только своё
 * сообщение»), Conflict (`message_deleted`) for a deleted message, RateLimited: an edit counts
 * against the message limit (20 per 30 s with the messages sent, docs/product/limits.md#rate-limits);
 * MemberMuted / AccountSuspended while the author is sanctioned.
 */
export async function editMessage(db: Db, actorId: number, messageId: number, body: string): Promise<MessageDto> {
  const text = checkBody(body);
  const { message, conversation } = await requireVisibleMessage(db, actorId, messageId);
  if (message.authorId !== actorId) throw new Forbidden("Можно изменить только своё сообщение", "not_author");
  const deleted = () => new Conflict("Сообщение удалено — изменить его нельзя", "message_deleted");
  if (message.deletedAt !== null) throw deleted();
  await assertMayPublish(db, actorId);
  // An edit reaches every subscriber like a new message, so it counts against the same limit.
  await consumeLimit(db, "messages", String(actorId), MESSAGE_RATE_MESSAGE);
  const [updated] = await db
    .update(messages)
    .set({ body: text, editedAt: new Date() })
    .where(and(eq(messages.id, message.id), sql`${messages.deletedAt} is null`))
    .returning();
  if (!updated) throw deleted();
  const [dto] = await toMessageDtos(db, [updated]);
  eventBus(db).publish({ type: "message.updated", message: dto!, conversation: { id: conversation.id, kind: conversation.kind } });
  return dto!;
}

/**
 * The author `actorId` deletes message `messageId`: soft delete, the body and the picture
 * (issue 14) are blanked and deleted_at set, so replies keep their quote ("deleted"). Publishes `message.deleted` the first
 * time; deleting again changes nothing.
 * With `storage`, the picture's file is removed from it too, so its address stops working.
 * Throws NotFound (`message_not_found`) and Forbidden (`not_author`, «Можно удалить только своё сообщение»).
 */
export async function deleteMessage(db: Db, actorId: number, messageId: number, storage?: FileStorage): Promise<void> {
  const { message, conversation } = await requireVisibleMessage(db, actorId, messageId);
  if (message.authorId !== actorId) throw new Forbidden("Можно удалить только своё сообщение", "not_author");
  const deleted = await db
    .update(messages)
    .set({ body: "", imageUrl: null, imageWidth: null, imageHeight: null, deletedAt: new Date() })
    .where(and(eq(messages.id, message.id), sql`${messages.deletedAt} is null`))
    .returning({ id: messages.id });
  if (deleted.length === 0) return;
  // Local storage serves a key at /uploads/{key} (app/lib/storage/local.server.ts).
  const key = message.imageUrl?.match(/^\/uploads\/(chat\/.+)$/)?.[1];
  if (storage && key) await storage.delete(key);
  eventBus(db).publish({ type: "message.deleted", messageId: message.id, conversation: { id: conversation.id, kind: conversation.kind } });
}

/**
 * Moves `userId`'s read marker in conversation `conversationId` forward to `upToMessageId`
 * (default: the conversation's last message), never backwards and never past the last message.
 * One query when the marker stays; when it moves, one more to publish `conversation.read`
 * (docs/product/conversations.md#read-receipts). Does nothing in the public conversation (no unread counts there),
 * in a conversation the member is not in, or for a malformed id. Returns the new marker, or
 * null when it did not move.
 */
export async function markConversationRead(db: Db, userId: number, conversationId: number, upToMessageId?: number): Promise<number | null> {
  if (!isValidId(conversationId)) return null;
  if (upToMessageId !== undefined && !isValidId(upToMessageId)) return null;
  // An empty conversation's last id is 0, not NULL: least(upTo, NULL) would be upTo, a marker past every future message.
  const lastId = latestMessageIdSql(conversationId);
  const target = upToMessageId === undefined ? lastId : sql`least(${upToMessageId}::integer, ${lastId})`;
  const [moved] = await db
    .update(conversationMembers)
    .set({ lastReadMessageId: sql`greatest(${conversationMembers.lastReadMessageId}, ${target})` })
    .where(
      and(
        eq(conversationMembers.conversationId, conversationId),
        eq(conversationMembers.userId, userId),
        sql`${conversationMembers.lastReadMessageId} < ${target}`,
      ),
    )
    .returning({ upTo: conversationMembers.lastReadMessageId });
  if (!moved) return null;
  const [conversation] = await db.select({ kind: conversations.kind }).from(conversations).where(eq(conversations.id, conversationId));
  if (conversation)
    eventBus(db).publish({ type: "conversation.read", conversation: { id: conversationId, kind: conversation.kind }, userId, upTo: moved.upTo });
  return moved.upTo;
}

/**
 * `userId`'s unread record (docs/product/conversations.md#unread-counts): the group and personal conversations holding messages by
 * others above the member's read marker, not deleted, with the exact count; `processed: true`
 * (the server's count). One query. The public conversation never appears (no unread counts).
 */
export async function getUnreadRecord(db: Db, userId: number): Promise<UnreadRecordDto> {
  // Counted per membership in a subquery, so the index on (conversation_id, id) starts at the read
  // marker: a join read every message of each conversation and dropped the read ones (12 ms for a
  // member of 26 conversations on the bench data set, issue 12).
  const unread =
    sql<number>`(select count(*) from ${messages} where ${messages.conversationId} = ${conversationMembers.conversationId} and ${messages.id} > ${conversationMembers.lastReadMessageId} and ${messages.authorId} <> ${userId} and ${messages.deletedAt} is null)`.mapWith(
      Number,
    );
  const memberships = await db
    .select({ conversationId: conversations.id, kind: conversations.kind, unread })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(and(eq(conversationMembers.userId, userId), inArray(conversations.kind, ["group", "personal"])))
    .orderBy(conversations.id);
  const rows = memberships.filter((row) => row.unread > 0);
  const record: UnreadRecordDto = { personal: [], group: [] };
  for (const row of rows) {
    const item: UnreadItem = { conversationId: row.conversationId, unreadMessages: row.unread, processed: true };
    record[channelKindOf(row.kind)].push(item);
  }
  return record;
}
