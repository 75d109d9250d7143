/**
 * Who sees what moderation has touched (docs/product/moderation.md#hide-threshold and
 * #content-actions), one rule for every read path:
 *
 * - An item hidden by reports is shown only to its author and to moderators, until a moderator
 *   decides. Posts leave every list, search and the sitemap; their page answers 404 to others.
 *   Comments, wall entries and messages keep their place in a thread with their text withheld.
 * - An item a moderator deleted is shown to nobody as it was: posts leave every list and their
 *   page answers «Пост удалён модератором» (moderators still open it, to restore it); comments,
 *   wall entries and messages keep their place as «Удалено модератором».
 */
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { posts } from "~/db/schema";
import { isModeratorRole, type UserRole } from "../users/roles";

/** Whoever reads: a member (id and role) or a visitor (null). */
export type Reader = { id: number; role: UserRole } | null | undefined;

/** Whether `reader` sees the hidden item of `authorId`: its author or a moderator. */
export function seesHidden(reader: Reader, authorId: number): boolean {
  return reader != null && (reader.id === authorId || isModeratorRole(reader.role));
}

/** SQL: posts anyone may list (neither deleted nor hidden). */
export const publicPostSql: SQL = and(isNull(posts.deletedAt), isNull(posts.hiddenAt))!;

/** SQL: posts `reader` may list: not deleted, and not hidden unless they wrote it or moderate. */
export function listablePostSql(reader: Reader): SQL {
  if (reader == null) return publicPostSql;
  if (isModeratorRole(reader.role)) return isNull(posts.deletedAt);
  return and(isNull(posts.deletedAt), or(isNull(posts.hiddenAt), eq(posts.authorId, reader.id)))!;
}

/** SQL text for raw queries over an aliased posts table `p`: neither deleted nor hidden. */
export const publicPostRawSql = (alias: string): SQL => sql.raw(`${alias}.deleted_at is null and ${alias}.hidden_at is null`);
