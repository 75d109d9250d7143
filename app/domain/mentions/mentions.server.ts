/**
 * @mentions (docs/product/content.md#mentions): `@username` in posts, comments, wall posts and public
 * messages links to the member's profile and notifies them — at most 10 per item, never the
 * author, never a member who blocked the author.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { blocks, users } from "~/db/schema";

/** At most this many members are notified per item (docs/product/content.md#mentions). */
export const MAX_MENTIONS_NOTIFIED = 10;

/** A username after "@", not glued to a preceding word (so e-mail addresses are not mentions). */
const MENTION = /(?<![\p{L}\p{N}_@.])@([A-Za-z0-9_А-Яа-яЁё]{3,32})(?![\p{L}\p{N}_])/gu;

/** A resolved mention: lower-cased username → the member. */
export type MentionMap = Map<string, { id: number; username: string }>;

/** The distinct usernames mentioned in `text`, lower-cased, in order of appearance. */
export function extractMentions(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(MENTION)) found.add(match[1]!.toLowerCase());
  return [...found];
}

/** Resolves every username mentioned in `texts` with one query; unknown names are left out. */
export async function resolveMentions(db: Db, texts: string[]): Promise<MentionMap> {
  const names = [...new Set(texts.flatMap(extractMentions))];
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
