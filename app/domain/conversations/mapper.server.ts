/**
 * The one mapper of messages to their public shape
 * (MessageDto, docs/product/engineering.md#one-mapper-per-entity). A list loads what its messages refer to — the quoted messages and every author — in
 * at most two queries, whatever its length, so no list makes N+1 queries.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversations, messages, users } from "~/db/schema";
import { extractMentions, resolveMentions, type MentionMap } from "../mentions/mentions.server";
import { isModeratorRole } from "../users/roles";
import { toUserRefDto, type UserRow } from "../users/users.server";
import { messageExcerpt } from "./excerpt";
import type { MessageDto } from "./types";

export type MessageRow = typeof messages.$inferSelect;

/** What a reply shows of the message it quotes. */
interface QuotedMessage {
  id: number;
  authorId: number;
  body: string;
  imageUrl: string | null;
  deletedAt: Date | null;
  hiddenAt: Date | null;
}

/** The batch-loaded neighbours of a list of messages: authors (and any extra members asked for) and quoted messages. */
export interface MessageContext {
  users: Map<number, UserRow>;
  quoted: Map<number, QuotedMessage>;
  /** The members mentioned in public-conversation messages, by lower-cased username (absent: none). */
  mentions?: MentionMap;
  /** The ids of those of the rows that are in the public conversation. */
  publicMessageIds?: Set<number>;
}

/**
 * Loads the context of `rows`: the messages they reply to that are not among them (one query,
 * skipped when none) and, in one more query, the authors of both plus `extraUserIds` (e.g. the
 * peers of personal conversations). `known` members are not loaded again.
 */
export async function loadMessageContext(db: Db, rows: MessageRow[], extraUserIds: number[] = [], known: UserRow[] = []): Promise<MessageContext> {
  const quoted = new Map<number, QuotedMessage>(rows.map((row) => [row.id, row]));
  const missing = [...new Set(rows.map((row) => row.replyToId).filter((id): id is number => id !== null && !quoted.has(id)))];
  if (missing.length > 0) {
    const found = await db
      .select({
        id: messages.id,
        authorId: messages.authorId,
        body: messages.body,
        imageUrl: messages.imageUrl,
        deletedAt: messages.deletedAt,
        hiddenAt: messages.hiddenAt,
      })
      .from(messages)
      .where(inArray(messages.id, missing));
    for (const row of found) quoted.set(row.id, row);
  }
  const userMap = new Map<number, UserRow>(known.map((user) => [user.id, user]));
  const wanted = new Set<number>([...rows.map((row) => row.authorId), ...extraUserIds]);
  for (const id of missing) {
    const quote = quoted.get(id);
    if (quote) wanted.add(quote.authorId);
  }
  const toLoad = [...wanted].filter((id) => !userMap.has(id));
  if (toLoad.length > 0) {
    for (const user of await db.select().from(users).where(inArray(users.id, toLoad))) userMap.set(user.id, user);
  }
  return { users: userMap, quoted, ...(await loadPublicMentions(db, rows)) };
}

/**
 * The mentions of those `rows` that are in the public conversation, where a mention notifies and so
 * links (docs/product/conversations.md#public-conversation): no query when no row holds an `@`,
 * else one for the conversations' kinds and one for every name of the list.
 */
async function loadPublicMentions(db: Db, rows: MessageRow[]): Promise<Pick<MessageContext, "mentions" | "publicMessageIds">> {
  const candidates = rows.filter((row) => row.deletedAt === null && row.body.includes("@"));
  if (candidates.length === 0) return {};
  const conversationIds = [...new Set(candidates.map((row) => row.conversationId))];
  const publicIds = new Set(
    (
      await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(inArray(conversations.id, conversationIds), eq(conversations.kind, "public")))
    ).map((row) => row.id),
  );
  const inPublic = candidates.filter((row) => publicIds.has(row.conversationId));
  if (inPublic.length === 0) return {};
  return {
    mentions: await resolveMentions(
      db,
      inPublic.map((row) => row.body),
    ),
    publicMessageIds: new Set(inPublic.map((row) => row.id)),
  };
}

/** The resolved members `row`'s body mentions, in order of appearance; [] outside the public conversation. */
function mentionsOf(row: MessageRow, context: MessageContext): { id: number; username: string }[] {
  if (!context.mentions || !context.publicMessageIds?.has(row.id)) return [];
  return extractMentions(row.body).flatMap((name) => {
    const member = context.mentions!.get(name);
    return member ? [{ id: member.id, username: member.username }] : [];
  });
}

/** Who reads a message: its author and moderators see its text while it is hidden by reports. */
export interface MessageViewer {
  id: number;
  role: UserRow["role"];
}

/**
 * Message `row` as a member of its conversation sees it: a deleted one has body "", no image and
 * `deleted: true` (`moderated` when a moderator deleted it: «Удалено модератором»); one hidden by
 * reports (docs/product/moderation.md#hide-threshold) has body "" and `hidden: true`, except for
 * its author and moderators (`viewer`). Without a viewer (realtime frames, sent to everyone) a
 * hidden message is always blank.
 */
export function toMessageDto(row: MessageRow, context: MessageContext, viewer?: MessageViewer | null): MessageDto {
  const author = context.users.get(row.authorId);
  if (!author) throw new Error(`author ${row.authorId} of message ${row.id} was not loaded`);
  const quote = row.replyToId === null ? undefined : context.quoted.get(row.replyToId);
  const deleted = row.deletedAt !== null;
  const hidden = !deleted && row.hiddenAt !== null;
  const readable = !deleted && (!hidden || (viewer != null && (viewer.id === row.authorId || isModeratorRole(viewer.role))));
  return {
    id: row.id,
    conversationId: row.conversationId,
    author: toUserRefDto(author),
    body: readable ? row.body : "",
    // The picture goes with the text: gone when deleted, hidden like it (issue 14).
    image: readable && row.imageUrl !== null ? { url: row.imageUrl, width: row.imageWidth ?? 0, height: row.imageHeight ?? 0 } : null,
    replyTo: quote
      ? {
          id: quote.id,
          author: context.users.get(quote.authorId)?.username ?? "",
          excerpt: quote.deletedAt === null && quote.hiddenAt === null ? messageExcerpt(quote.body, quote.imageUrl !== null) : "",
          deleted: quote.deletedAt !== null,
        }
      : null,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    deleted,
    moderated: deleted && row.deletedById !== null,
    hidden,
    mentions: readable ? mentionsOf(row, context) : [],
  };
}

/** `rows` as DTOs for `viewer` (see toMessageDto), in the same order: at most two queries (see loadMessageContext). */
export async function toMessageDtos(db: Db, rows: MessageRow[], known: UserRow[] = [], viewer?: MessageViewer | null): Promise<MessageDto[]> {
  if (rows.length === 0) return [];
  const context = await loadMessageContext(db, rows, [], known);
  return rows.map((row) => toMessageDto(row, context, viewer));
}
