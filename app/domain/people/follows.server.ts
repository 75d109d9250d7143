/**
 * Following members (docs/product/accounts.md#follows-and-blocks: followers hear about their followees' new posts).
 * The primary key (follower, followee) makes following idempotent; a CHECK forbids
 * following oneself.
 */
import { and, eq, or } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { blocks, follows } from "~/db/schema";
import { Forbidden, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import type { UserRow } from "../users/users.server";
import { requireMember } from "./relations.server";

export interface FollowResult {
  /** The member followed or unfollowed. */
  profile: { id: number; username: string };
  /** The actor follows them now. */
  following: boolean;
  /** False when nothing changed (already following, or not following to begin with). */
  changed: boolean;
}

/**
 * `actor` follows member `profileId`. Following someone already followed changes nothing
 * and publishes nothing; a new follow publishes `follow.created` after it is stored.
 * Throws ValidationFailed (`cannot_follow_self`) for oneself, NotFound (`profile_not_found`),
 * Forbidden (`blocked`) when the member blocked the actor and Forbidden (`blocking`) when
 * the actor blocked the member (unblock first).
 */
export async function followMember(db: Db, actor: UserRow, profileId: number): Promise<FollowResult> {
  if (profileId === actor.id) throw new ValidationFailed("Нельзя подписаться на самого себя", undefined, "cannot_follow_self");
  const profile = await requireMember(db, profileId);
  const between = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, profile.id), eq(blocks.blockedId, actor.id)), and(eq(blocks.blockerId, actor.id), eq(blocks.blockedId, profile.id))));
  if (between.some((row) => row.blockerId === profile.id)) {
    throw new Forbidden("Участник ограничил вам доступ: подписаться на него нельзя", "blocked");
  }
  if (between.length > 0) throw new Forbidden("Вы заблокировали этого участника. Сначала разблокируйте его.", "blocking");
  const inserted = await db
    .insert(follows)
    .values({ followerId: actor.id, followeeId: profile.id })
    .onConflictDoNothing()
    .returning({ followeeId: follows.followeeId });
  const changed = inserted.length > 0;
  if (changed) eventBus(db).publish({ type: "follow.created", followerId: actor.id, followeeId: profile.id });
  return { profile: { id: profile.id, username: profile.username }, following: true, changed };
}

/**
 * Follows member `profileId` if `actor` does not yet, unfollows otherwise (the form's toggle).
 * Throws as followMember and unfollowMember.
 */
export async function toggleFollow(db: Db, actor: UserRow, profileId: number): Promise<FollowResult> {
  const [existing] = isValidId(profileId)
    ? await db
        .select({ followeeId: follows.followeeId })
        .from(follows)
        .where(and(eq(follows.followerId, actor.id), eq(follows.followeeId, profileId)))
        .limit(1)
    : [];
  return existing ? unfollowMember(db, actor, profileId) : followMember(db, actor, profileId);
}

/**
 * `actor` stops following member `profileId`; unfollowing someone not followed changes
 * nothing. Throws NotFound (`profile_not_found`) for an unknown member.
 */
export async function unfollowMember(db: Db, actor: UserRow, profileId: number): Promise<FollowResult> {
  const profile = await requireMember(db, profileId);
  const deleted = await db
    .delete(follows)
    .where(and(eq(follows.followerId, actor.id), eq(follows.followeeId, profile.id)))
    .returning({ followeeId: follows.followeeId });
  return { profile: { id: profile.id, username: profile.username }, following: false, changed: deleted.length > 0 };
}
