/**
 * People search and the online list (docs/product/content.md#people-search, docs/product/accounts.md#online-and-last-seen; issue 3 item 6).
 *
 * Search matches usernames case-insensitively: names that start with the query come first,
 * then names similar to it (pg_trgm's `%` operator, similarity ≥ 0.3 by default). Both
 * conditions are served by the GIN index users_username_trgm_idx on lower(username).
 * Only public fields leave this module (UserRefDto: no email, no token).
 */
import { and, count, desc, gt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { toUserRefDto, type UserRefDto } from "../users/users.server";
import { normalizeQuery } from "./query";

/** A member counts as online when seen in the last 5 minutes (docs/product/accounts.md#online-and-last-seen). */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

/** Usernames are at most 32 characters; a longer query cannot match a prefix anyway. */
const MAX_PEOPLE_QUERY_LENGTH = 64;

/** A member on the online list: the public reference plus when they were last seen (ISO). */
export interface OnlineProfileDto extends UserRefDto {
  lastSeenAt: string;
}

/** Escapes LIKE's wildcards: `_` is legal in usernames and must match only itself. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Members whose username starts with `rawQuery` (case-insensitive), then members whose
 * username is similar to it (trigram similarity), best first; a leading «@» is ignored.
 * An empty query returns an empty page. Two queries: the page and the total.
 */
export async function searchProfiles(db: Db, rawQuery: string, params: PageParams): Promise<Page<UserRefDto>> {
  const q = normalizeQuery(rawQuery).replace(/^@+/, "").slice(0, MAX_PEOPLE_QUERY_LENGTH).toLowerCase();
  if (q === "") return toPage([], 0, params);
  const name = sql`lower(${users.username})`;
  const prefix = sql`${name} like ${`${escapeLike(q)}%`}`;
  const where = or(prefix, sql`${name} % ${q}`);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(prefix), desc(sql`similarity(${name}, ${q})`), sql`char_length(${users.username})`, users.username)
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return toPage(rows.map(toUserRefDto), counted?.total ?? 0, params);
}

function onlineSince(now: Date): Date {
  return new Date(now.getTime() - ONLINE_WINDOW_MS);
}

/** The home page's «Сейчас на сайте (N)»: the first members online and how many there are. */
export interface OnlineBlock {
  members: UserRefDto[];
  total: number;
}

/**
 * Members seen in the last 5 minutes (docs/product/accounts.md#online-and-last-seen), most recent
 * first, at most `limit` (≥ 1) of them, and how many there are: one query, the count a window over
 * the same rows (issue 12: a member's home page had a query for each). `users.last_seen_at` is
 * written by sessions at most once a minute.
 */
export async function listOnlineProfiles(db: Db, limit: number, now: Date = new Date()): Promise<OnlineBlock> {
  const rows = await db
    .select({ user: users, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(users)
    .where(gt(users.lastSeenAt, onlineSince(now)))
    .orderBy(desc(users.lastSeenAt), users.id)
    .limit(Math.max(1, Math.floor(limit)));
  return { members: rows.map((row) => toUserRefDto(row.user)), total: rows[0]?.total ?? 0 };
}

/**
 * A page of the online list (GET /api/profiles/online), most recently seen first, with
 * each member's last-seen time. Two queries: the page and the total.
 */
export async function listOnlineProfilesPage(db: Db, params: PageParams, now: Date = new Date()): Promise<Page<OnlineProfileDto>> {
  const where = and(gt(users.lastSeenAt, onlineSince(now)));
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.lastSeenAt), users.id)
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ total: count() }).from(users).where(where),
  ]);
  const items = rows.map((row) => ({ ...toUserRefDto(row), lastSeenAt: row.lastSeenAt!.toISOString() }));
  return toPage(items, counted?.total ?? 0, params);
}
