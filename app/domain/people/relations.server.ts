/**
 * Follows and blocks between members (issue 3, PRODUCT.md People). STUB: the wall helper implements it.
 */
import type { Db } from "~/db/client.server";

export interface ProfileRelations {
  followerCount: number;
  followingCount: number;
  /** The viewer follows this member. */
  following: boolean;
  /** The viewer blocked this member. */
  blocking: boolean;
  /** This member blocked the viewer. */
  blockedByThem: boolean;
}

export async function getProfileRelations(_db: Db, _viewerId: number | null, _profileId: number): Promise<ProfileRelations> {
  return { followerCount: 0, followingCount: 0, following: false, blocking: false, blockedByThem: false };
}

/** True when `ownerId` has blocked `actorId` (PRODUCT.md People). */
export async function isBlockedBy(_db: Db, _ownerId: number, _actorId: number): Promise<boolean> {
  return false;
}
