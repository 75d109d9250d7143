/**
 * Who may open which conversation, and the small shared pieces of the conversation and message
 * modules (issue 4; docs/product/conversations.md): the address kinds of URLs and channels, the
 * NotFound of someone else's conversation, block checks, Zod results to ValidationFailed.
 */
import { and, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { blocks, conversationMembers, conversations, messages } from "~/db/schema";
import { Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import type { MessageRow } from "./mapper.server";

export type ConversationRow = typeof conversations.$inferSelect;
/** The kinds URLs and channels use; "group" also addresses the public conversation. */
export type AddressKind = "group" | "personal";

/** What a member may learn about a conversation they can open. */
export interface ConversationAccess {
  conversation: ConversationRow;
  /** The viewer's read marker, or null in the public conversation (no membership there). */
  lastReadMessageId: number | null;
}

/** The Russian text of a refused personal message (docs/product/accounts.md#follows-and-blocks). */
export const BLOCKED_MESSAGE = "Вы не можете написать этому пользователю";

/**
 * The error of a conversation the member cannot open: NotFound (404, `conversation_not_found`,
 * «Беседа не найдена»), the same for someone else's conversation as for one that does not exist
 * (docs/product/engineering.md#private-resources-answer-404).
 */
export const conversationNotFound = () => new NotFound("Беседа не найдена", "conversation_not_found");

/**
 * The parsed value, or throws ValidationFailed (`invalid_input`) with the first Russian message
 * and the errors per field (`field` names a value parsed on its own).
 */
export function orInvalid<T>(
  parsed: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
  field = "form",
): T {
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? field)] ??= []).push(issue.message);
  throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Проверьте введённые данные", fields, "invalid_input");
}

/** Whether a conversation of `actual` kind is addressed by `kind` in URLs and channels. */
export function addressedAs(kind: AddressKind, actual: ConversationRow["kind"]): boolean {
  return kind === "personal" ? actual === "personal" : actual === "group" || actual === "public";
}

/** The channel kind of a stored kind: the public conversation travels as "group" (docs/product/realtime.md#channels). */
export function channelKindOf(kind: ConversationRow["kind"]): AddressKind {
  return kind === "personal" ? "personal" : "group";
}

/**
 * Conversation `id` as `viewerId` may open it under `kind` (one query): a group or personal
 * conversation they are a member of, or (kind "group") the public one.
 * Throws NotFound (`conversation_not_found`) for a malformed or unknown id, another kind, or a
 * conversation the viewer is not in.
 */
export async function requireConversation(db: Db, viewerId: number, kind: AddressKind, id: number): Promise<ConversationAccess> {
  const [row] = isValidId(id)
    ? await db
        .select({ conversation: conversations, lastReadMessageId: conversationMembers.lastReadMessageId })
        .from(conversations)
        .leftJoin(conversationMembers, and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.userId, viewerId)))
        .where(eq(conversations.id, id))
        .limit(1)
    : [];
  if (!row || !addressedAs(kind, row.conversation.kind)) throw conversationNotFound();
  if (row.conversation.kind === "public") return { conversation: row.conversation, lastReadMessageId: null };
  if (row.lastReadMessageId === null) throw conversationNotFound();
  return { conversation: row.conversation, lastReadMessageId: row.lastReadMessageId };
}

/**
 * Throws Forbidden (`blocked`, «Вы не можете написать этому пользователю») when either of the
 * two members blocked the other (docs/product/accounts.md#follows-and-blocks: a blocked member cannot message the blocker).
 */
export async function assertNotBlocked(db: Db, userId: number, otherUserId: number): Promise<void> {
  const [row] = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(
      sql`(${blocks.blockerId} = ${userId} and ${blocks.blockedId} = ${otherUserId}) or (${blocks.blockerId} = ${otherUserId} and ${blocks.blockedId} = ${userId})`,
    )
    .limit(1);
  if (row) throw new Forbidden(BLOCKED_MESSAGE, "blocked");
}

/**
 * Messages of one conversation, newest first, in the exact order of messages_conversation_id_idx
 * (conversation_id, id DESC, i.e. NULLS FIRST as every index here since drizzle/0017): an order the
 * index does not match makes PostgreSQL walk the primary key backwards, past every newer message of
 * all the other conversations.
 */
export const newestMessagesFirst = desc(messages.id);

/**
 * SQL for the id of conversation `conversationId`'s latest message, 0 when it has none (a read
 * marker before every message). One index entry, where max(id) would fall into the backwards
 * primary-key walk described at newestMessagesFirst.
 */
export function latestMessageIdSql(conversationId: number): SQL<number> {
  return sql<number>`coalesce((select ${messages.id} from ${messages} where ${messages.conversationId} = ${conversationId} order by ${newestMessagesFirst} limit 1), 0)`;
}

/**
 * The last message of each conversation in `ids` that has one, in no particular order (one
 * query). Each conversation reads one entry of messages_conversation_id_idx through a lateral
 * join, however long its history or the other conversations' histories.
 */
export async function lastMessagesOf(db: Db, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const last = db.select().from(messages).where(eq(messages.conversationId, conversations.id)).orderBy(newestMessagesFirst).limit(1).as("last_message");
  const rows = await db
    .select()
    .from(conversations)
    .innerJoinLateral(last, sql`true`)
    .where(inArray(conversations.id, ids));
  return rows.map((row) => row.last_message);
}

/** The members of conversation `conversationId` other than `exceptUserId` (the recipients of a message). */
export async function memberIdsExcept(db: Db, conversationId: number, exceptUserId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: conversationMembers.userId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.conversationId, conversationId), ne(conversationMembers.userId, exceptUserId)));
  return rows.map((row) => row.userId);
}
