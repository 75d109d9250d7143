/**
 * The viewer's relation to one post: liked, bookmarked; and view counting (issue 3).
 * STUB: the likes helper implements it.
 */
import type { Db } from "~/db/client.server";

export interface PostEngagement {
  liked: boolean;
  bookmarked: boolean;
}

export async function getPostEngagement(_db: Db, _viewerId: number | null, _postId: number): Promise<PostEngagement> {
  return { liked: false, bookmarked: false };
}

/** Counts a view once per visitor per post per day (issue 3). `visitorKey`: see post_views. */
export async function recordView(_db: Db, _postId: number, _visitorKey: string): Promise<void> {}
