/**
 * A member's personal block list (docs/product/accounts.md#follows-and-blocks): a blocked member cannot message the
 * blocker, write on their wall or mention them. The wall enforces its part here
 * (createWallPost); chat and mentions ask `isBlockedBy` / `mentionTargets`.
 *
 * Blocking also ends following in both directions, in the same transaction: a blocker should
 * not keep hearing about the blocked member's posts, nor the blocked member about theirs.
 * Unblocking does not bring the follows back. Entries the blocked member already wrote on
 * the blocker's wall stay; the owner may delete them.
 */
import { and, eq, or } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { blocks, follows } from "~/db/schema";
import { ValidationFailed } from "~/lib/errors";
import type { UserRow } from "../users/users.server";
import { requireMember } from "./relations.server";

export interface BlockResult {
  /** The member blocked or unblocked. */
  profile: { id: number; username: string };
  /** The actor blocks them now. */
  blocking: boolean;
  /** False when nothing changed (already blocked, or not blocked to begin with). */
  changed: boolean;
}

/**
 * `actor` blocks member `profileId` and both follows between them are removed, in one
 * transaction. Blocking twice changes nothing.
 * Throws ValidationFailed (`cannot_block_self`) for oneself and NotFound (`profile_not_found`).
 */
export async function blockMember(db: Db, actor: UserRow, profileId: number): Promise<BlockResult> {
  if (profileId === actor.id) throw new ValidationFailed("Нельзя заблокировать самого себя", undefined, "cannot_block_self");
  const profile = await requireMember(db, profileId);
  const changed = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(blocks)
      .values({ blockerId: actor.id, blockedId: profile.id })
      .onConflictDoNothing()
      .returning({ blockedId: blocks.blockedId });
    await tx
      .delete(follows)
      .where(
        or(
          and(eq(follows.followerId, actor.id), eq(follows.followeeId, profile.id)),
          and(eq(follows.followerId, profile.id), eq(follows.followeeId, actor.id)),
        ),
      );
    return inserted.length > 0;
  });
  return { profile: { id: profile.id, username: profile.username }, blocking: true, changed };
}

/**
 * Blocks member `profileId` if `actor` does not yet, unblocks otherwise (the form's toggle).
 * Throws as blockMember and unblockMember.
 */
export async function toggleBlock(db: Db, actor: UserRow, profileId: number): Promise<BlockResult> {
  const [existing] = isValidId(profileId)
    ? await db
        .select({ blockedId: blocks.blockedId })
        .from(blocks)
        .where(and(eq(blocks.blockerId, actor.id), eq(blocks.blockedId, profileId)))
        .limit(1)
    : [];
  return existing ? unblockMember(db, actor, profileId) : blockMember(db, actor, profileId);
}

/** `actor` unblocks member `profileId`. Throws NotFound (`profile_not_found`) for an unknown member. */
export async function unblockMember(db: Db, actor: UserRow, profileId: number): Promise<BlockResult> {
  const profile = await requireMember(db, profileId);
  const deleted = await db
    .delete(blocks)
    .where(and(eq(blocks.blockerId, actor.id), eq(blocks.blockedId, profile.id)))
    .returning({ blockedId: blocks.blockedId });
  return { profile: { id: profile.id, username: profile.username }, blocking: false, changed: deleted.length > 0 };
}
