/**
 * Bookmarks (issue 3 item 5, docs/product/content.md#bookmarks): a member keeps posts to read later;
 * /profile/bookmarks lists them newest first. One row per member per post (primary key).
 */
import { and, count, desc, eq, getTableColumns, inArray } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { bookmarks, posts, users } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { toPostSummaryDto, type PostSummaryDto } from "../posts/posts.server";
import type { UserRow } from "../users/users.server";
import { isForeignKeyViolation } from "~/db/errors";
import { listablePostSql, seesHidden } from "../moderation/visibility.server";

/** A bookmarked post: the post's summary and when it was bookmarked (ISO string). */
export interface BookmarkDto {
  post: PostSummaryDto;
  bookmarkedAt: string;
}

/** List columns of a post: neither the body (up to 50 000 characters) nor the search vector. */
const { body: _body, searchVector: _searchVector, ...listColumns } = getTableColumns(posts);

const postNotFound = () => new NotFound("Пост не найден", "post_not_found");

/**
 * Bookmarks post `postId` for `actor` when `bookmarked` is true, removes the bookmark when
 * false, and flips it when omitted. Idempotent for an explicit state. Returns the new state.
 * Throws NotFound (`post_not_found`) for an unknown post.
 */
export async function setBookmark(db: Db, actor: UserRow, postId: number, bookmarked?: boolean): Promise<{ bookmarked: boolean }> {
  if (!isValidId(postId)) throw postNotFound();
  const [post] = await db
    .select({ id: posts.id, authorId: posts.authorId, deletedAt: posts.deletedAt, hiddenAt: posts.hiddenAt })
    .from(posts)
    .where(eq(posts.id, postId))
    .limit(1);
  // A post deleted by a moderator, or hidden by reports from the actor, cannot be bookmarked (issue 10); removing stays possible.
  if (!post || (bookmarked !== false && (post.deletedAt || (post.hiddenAt && !seesHidden(actor, post.authorId))))) throw postNotFound();
  if (bookmarked !== false) {
    try {
      const inserted = await db.insert(bookmarks).values({ userId: actor.id, postId }).onConflictDoNothing().returning({ postId: bookmarks.postId });
      if (inserted.length > 0 || bookmarked === true) return { bookmarked: true };
    } catch (error) {
      if (isForeignKeyViolation(error)) throw postNotFound();
      throw error;
    }
  }
  await db.delete(bookmarks).where(and(eq(bookmarks.userId, actor.id), eq(bookmarks.postId, postId)));
  return { bookmarked: false };
}

/** Flips `actor`'s bookmark on post `postId`; see setBookmark. */
export function toggleBookmark(db: Db, actor: UserRow, postId: number): Promise<{ bookmarked: boolean }> {
  return setBookmark(db, actor, postId);
}

/**
 * Which of `postIds` `viewerId` has bookmarked, for the bookmark buttons of a feed.
 * Empty for a visitor. One query whatever the number of posts (none for an empty list).
 */
export async function bookmarkedPostIds(db: Db, viewerId: number | null, postIds: number[]): Promise<Set<number>> {
  const ids = [...new Set(postIds.filter(isValidId))];
  if (viewerId === null || ids.length === 0) return new Set();
  const rows = await db
    .select({ postId: bookmarks.postId })
    .from(bookmarks)
    .where(and(eq(bookmarks.userId, viewerId), inArray(bookmarks.postId, ids)));
  return new Set(rows.map((r) => r.postId));
}

/**
 * A page of `userId`'s bookmarked posts, the most recently bookmarked first
 * (docs/product/content.md#bookmarks). Two queries whatever the page size: rows joined with posts and authors, and the count.
 */
export async function listBookmarks(db: Db, userId: number, params: PageParams): Promise<Page<BookmarkDto>> {
  // Posts deleted by a moderator or hidden by reports (unless the member wrote them) leave the list (issue 10).
  const where = and(eq(bookmarks.userId, userId), listablePostSql({ id: userId, role: "member" }));
  const [rows, [total]] = await Promise.all([
    db
      .select({ post: listColumns, author: users, bookmarkedAt: bookmarks.createdAt })
      .from(bookmarks)
      .innerJoin(posts, eq(posts.id, bookmarks.postId))
      .innerJoin(users, eq(users.id, posts.authorId))
      .where(where)
      .orderBy(desc(bookmarks.createdAt), desc(bookmarks.postId))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(bookmarks).innerJoin(posts, eq(posts.id, bookmarks.postId)).where(where),
  ]);
  return toPage(
    rows.map((r) => ({ post: toPostSummaryDto(r.post, r.author), bookmarkedAt: r.bookmarkedAt.toISOString() })),
    total?.value ?? 0,
    params,
  );
}
