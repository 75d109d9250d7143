/**
 * The viewer's relation to one post (liked, bookmarked). Views are counted by view-buffer.server.ts.
 */
import { eq, sql } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { bookmarks, postLikes, posts } from "~/db/schema";

export interface PostEngagement {
  liked: boolean;
  bookmarked: boolean;
}

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
