/**
 * Likes on posts, comments and wall posts (issue 3). STUB: the likes helper implements it.
 */
import type { Db } from "~/db/client.server";
import type { LikeTarget } from "~/lib/events.server";
import type { UserRow } from "../users/users.server";

export type { LikeTarget };

/**
 * Likes the item if `actor` has not, takes the like back if they have.
 * Returns the new state and count.
 */
export async function toggleLike(_db: Db, _actor: UserRow, _target: LikeTarget, _targetId: number): Promise<{ liked: boolean; likeCount: number }> {
  throw new Error("not implemented");
}

/** Which of `ids` (items of one kind) `viewerId` has liked; empty for a visitor. One query. */
export async function likedIds(_db: Db, _viewerId: number | null, _target: LikeTarget, _ids: number[]): Promise<Set<number>> {
  return new Set();
}
