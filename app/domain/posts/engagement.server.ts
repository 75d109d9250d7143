/**
 * The viewer's relation to one post (liked, bookmarked) and view counting (issue 3 item 2:
 * "views counted once per visitor per post per day").
 */
import { and, eq, sql } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { bookmarks, postLikes, posts, postViews } from "~/db/schema";
import { isForeignKeyViolation } from "~/db/errors";

export interface PostEngagement {
  liked: boolean;
  bookmarked: boolean;
}

/** Days of post_views are Moscow days, like every date the site shows (app/lib/format.ts). */
const moscowDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Moscow", year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * Whether `viewerId` has liked and bookmarked post `postId`; both false for a visitor or an
 * unknown post. One query.
 */
export async function getPostEngagement(db: Db, viewerId: number | null, postId: number): Promise<PostEngagement> {
  if (viewerId === null || !isValidId(postId)) return { liked: false, bookmarked: false };
  const [row] = await db
    .select({
      liked: sql<boolean>`exists (select 1 from ${postLikes} where ${postLikes.postId} = ${posts.id} and ${postLikes.userId} = ${viewerId})`,
      bookmarked: sql<boolean>`exists (select 1 from ${bookmarks} where ${bookmarks.postId} = ${posts.id} and ${bookmarks.userId} = ${viewerId})`,
    })
    .from(posts)
    .where(eq(posts.id, postId))
    .limit(1);
  return { liked: row?.liked === true, bookmarked: row?.bookmarked === true };
}

/**
 * Counts a view of post `postId` once per visitor per Moscow day: a post_views row is
 * inserted and posts.views incremented in one statement, and only when the row is new, so
 * reloads and racing requests add nothing. `visitorKey`: `u:{userId}` or `v:{hash}` (see
 * post_views). `now` is for tests. An unknown post is ignored.
 */
export async function recordView(db: Db, postId: number, visitorKey: string, now: Date = new Date()): Promise<void> {
  if (!isValidId(postId)) return;
  const day = moscowDay.format(now);
  const inserted = db
    .$with("inserted")
    .as(db.insert(postViews).values({ postId, visitorKey, day }).onConflictDoNothing().returning({ postId: postViews.postId }));
  try {
    await db
      .with(inserted)
      .update(posts)
      .set({ views: sql`${posts.views} + 1` })
      .where(and(eq(posts.id, postId), sql`exists (select 1 from ${inserted})`));
  } catch (error) {
    // foreign_key_violation: the post was deleted while it was being read; nothing to count.
    if (isForeignKeyViolation(error)) return;
    throw error;
  }
}
