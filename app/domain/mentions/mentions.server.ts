/**
 * @mentions (docs/product/content.md#mentions): `@username` in posts, comments, wall posts and public
 * messages links to the member's profile and notifies them — at most 10 per item, never the
 * author, never a member who blocked the author.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { blocks, users } from "~/db/schema";
import { cookedMentionNames, markdownMentions, type MentionMap } from "~/lib/markdown.server";

/** At most this many members are notified per item (docs/product/content.md#mentions). */
export const MAX_MENTIONS_NOTIFIED = 10;

export type { MentionMap };

/**
 * The distinct usernames mentioned in `text`, lower-cased, in order of appearance — taken from the
 * parsed Markdown, the same tokens the renderer links (markdownMentions, issue 13 item 9): never
 * from code, URLs, e-mail addresses or a link's text.
 */
export function extractMentions(text: string): string[] {
  return markdownMentions(text);
}

/** Resolves every username mentioned in the Markdown `texts` with one query; unknown names are left out. */
export async function resolveMentions(db: Db, texts: string[]): Promise<MentionMap> {
  return resolveMentionNames(db, texts.flatMap(extractMentions));
}

/**
 * Resolves every username mentioned in cooked HTML (app/domain/cooked: the placeholders
 * cookMarkdown leaves) with one query, for linkMentions; unknown names are left out. Reading the
 * placeholders is one regular expression per item, where parsing the Markdown again was the cost.
 */
export async function resolveCookedMentions(db: Db, cooked: string[]): Promise<MentionMap> {
  return resolveMentionNames(db, cooked.flatMap(cookedMentionNames));
}

/** Members by lower-cased username (`names`, lower-cased, repeats allowed), one query. */
async function resolveMentionNames(db: Db, mentioned: string[]): Promise<MentionMap> {
  const names = [...new Set(mentioned)];
  if (names.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(sql`lower(${users.username})`, names));
  return new Map(rows.map((row) => [row.username.toLowerCase(), row]));
}

/**
 * The members to notify about the mentions in `text` written by `authorId`: existing,
 * not the author, not blocking the author, at most 10 (docs/product/content.md#mentions, docs/product/accounts.md#follows-and-blocks).
 */
export async function mentionTargets(db: Db, authorId: number, text: string): Promise<number[]> {
  const names = extractMentions(text).slice(0, MAX_MENTIONS_NOTIFIED);
  if (names.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .leftJoin(blocks, and(eq(blocks.blockerId, users.id), eq(blocks.blockedId, authorId)))
    .where(and(inArray(sql`lower(${users.username})`, names), sql`${blocks.blockerId} is null`, sql`${users.id} <> ${authorId}`));
  return rows.map((row) => row.id);
}
