/**
 * A member's conversations with the assistant (issue 11: "conversations kept per member (list,
 * rename, delete)"). Someone else's conversation answers 404, as any private resource here.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { assistantConversations, assistantMessages } from "~/db/schema";
import { NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { renderMarkdown } from "~/lib/markdown.server";
import { isCleanText } from "~/lib/text";
import { MAX_ANSWER_MS } from "./upstream.server";
import { failureMessage, type AssistantConversationDto, type AssistantMessageDto } from "./types";

/** The longest conversation title. */
export const MAX_TITLE_LENGTH = 100;
/** Conversations listed beside the chat, newest first. */
export const CONVERSATIONS_LISTED = 50;

type MessageRow = typeof assistantMessages.$inferSelect;
type ConversationRow = typeof assistantConversations.$inferSelect;

/** The one mapper of a message. An answer still «streaming» long after MAX_ANSWER_MS was cut off by a restart. */
export function toMessageDto(row: MessageRow, now = Date.now()): AssistantMessageDto {
  const orphaned = row.status === "streaming" && now - row.createdAt.getTime() > MAX_ANSWER_MS + 60_000;
  const status = orphaned ? "failed" : row.status;
  const errorCode = orphaned ? "interrupted" : row.errorCode;
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    html: row.role === "assistant" && row.content ? renderMarkdown(row.content) : null,
    status,
    errorCode,
    errorMessage: errorCode ? failureMessage(errorCode) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

function toConversationDto(row: ConversationRow): AssistantConversationDto {
  return { id: row.id, title: row.title, updatedAt: row.updatedAt.toISOString() };
}

/** Member `userId`'s conversations, most recently used first (at most 50). */
export async function listConversations(db: Db, userId: number): Promise<AssistantConversationDto[]> {
  const rows = await db
    .select()
    .from(assistantConversations)
    .where(eq(assistantConversations.userId, userId))
    .orderBy(desc(assistantConversations.updatedAt), desc(assistantConversations.id))
    .limit(CONVERSATIONS_LISTED);
  return rows.map(toConversationDto);
}

/** Conversation `id` of member `userId` with its messages in order. Throws NotFound (`conversation_not_found`) for anyone else's. */
export async function getConversation(db: Db, userId: number, id: number): Promise<AssistantConversationDto & { messages: AssistantMessageDto[] }> {
  const conversation = await findOwn(db, userId, id);
  const rows = await db.select().from(assistantMessages).where(eq(assistantMessages.conversationId, conversation.id)).orderBy(asc(assistantMessages.id));
  const now = Date.now();
  return { ...toConversationDto(conversation), messages: rows.map((row) => toMessageDto(row, now)) };
}

/**
 * Member `userId` renames conversation `id` to `title` (trimmed, 1–100 characters). Throws
 * NotFound (`conversation_not_found`), ValidationFailed (`invalid_input` under `title`).
 */
export async function renameConversation(db: Db, userId: number, id: number, title: string): Promise<AssistantConversationDto> {
  const clean = title.trim();
  if (clean.length === 0 || clean.length > MAX_TITLE_LENGTH || !isCleanText(clean)) {
    const message = `Название — от 1 до ${MAX_TITLE_LENGTH} символов`;
    throw new ValidationFailed(message, { title: [message] }, "invalid_input");
  }
  const [row] = await db
    .update(assistantConversations)
    .set({ title: clean })
    .where(and(eq(assistantConversations.id, validId(id)), eq(assistantConversations.userId, userId)))
    .returning();
  if (!row) throw conversationNotFound();
  return toConversationDto(row);
}

/** Member `userId` deletes conversation `id` with its messages (the day's quota is not given back). Throws NotFound (`conversation_not_found`). */
export async function deleteConversation(db: Db, userId: number, id: number): Promise<void> {
  const rows = await db
    .delete(assistantConversations)
    .where(and(eq(assistantConversations.id, validId(id)), eq(assistantConversations.userId, userId)))
    .returning({ id: assistantConversations.id });
  if (rows.length === 0) throw conversationNotFound();
}

/** A conversation title from the first message: its first line, at most 60 characters. */
export function titleFrom(content: string): string {
  const line = content.trim().split(/\r?\n/, 1)[0]!.replace(/\s+/g, " ").trim();
  return line.length <= 60 ? line || "Новый разговор" : `${line.slice(0, 59).trimEnd()}…`;
}

async function findOwn(db: Db, userId: number, id: number): Promise<ConversationRow> {
  const [row] = await db
    .select()
    .from(assistantConversations)
    .where(and(eq(assistantConversations.id, validId(id)), eq(assistantConversations.userId, userId)));
  if (!row) throw conversationNotFound();
  return row;
}

export function conversationNotFound(): NotFound {
  return new NotFound("Разговор не найден", "conversation_not_found");
}

function validId(id: number): number {
  if (!isValidId(id)) throw conversationNotFound();
  return id;
}
