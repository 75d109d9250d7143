/**
 * What one member is to another: follows and blocks as a profile shows them
 * (issue 3, docs/product/accounts.md#follows-and-blocks). Writing them lives in follows.server.ts and blocks.server.ts.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { blocks, follows, users } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { getUserById, toUserRefDto, type UserRefDto, type UserRow } from "../users/users.server";

/** How many followers and followees a profile lists; the counts are always exact. */
export const RELATION_LIST_LIMIT = 20;

export interface ProfileRelations {
  followerCount: number;
  followingCount: number;
  /** The viewer follows this member. */
  following: boolean;
  /** The viewer blocked this member. */
  blocking: boolean;
  /** This member blocked the viewer. */
  blockedByThem: boolean;
  /** The latest followers, newest first, at most RELATION_LIST_LIMIT. */
  followers: UserRefDto[];
  /** The members this one follows, latest first, at most RELATION_LIST_LIMIT. */
  followees: UserRefDto[];
}

/** Member `id`. Throws NotFound (`profile_not_found`) for an unknown or malformed id. */
export async function requireMember(db: Db, id: number): Promise<UserRow> {
  const user = isValidId(id) ? await getUserById(db, id) : null;
  if (!user) throw new NotFound("Пользователь не найден", "profile_not_found");
  return user;
}

/**
 * Follower and following counts of `profileId`, the latest 20 of each, and what the viewer
 * and the member are to each other (all false for a visitor). Three queries, run together.
 */
export async function getProfileRelations(db: Db, viewerId: number | null, profileId: number): Promise<ProfileRelations> {
  const empty: ProfileRelations = {
    followerCount: 0,
    followingCount: 0,
    following: false,
    blocking: false,
    blockedByThem: false,
    followers: [],
    followees: [],
  };
  if (!isValidId(profileId)) return empty;
  const viewer = viewerId ?? 0;
  const [[flags], followerRows, followeeRows] = await Promise.all([
    db
      .select({
        followerCount: sql<number>`(select count(*) from ${follows} where ${follows.followeeId} = ${profileId})`.mapWith(Number),
        followingCount: sql<number>`(select count(*) from ${follows} where ${follows.followerId} = ${profileId})`.mapWith(Number),
        following: sql<boolean>`exists (select 1 from ${follows} where ${follows.followerId} = ${viewer} and ${follows.followeeId} = ${profileId})`,
        blocking: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${viewer} and ${blocks.blockedId} = ${profileId})`,
        blockedByThem: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${profileId} and ${blocks.blockedId} = ${viewer})`,
      })
      .from(sql`(select 1) as one`),
    db
      .select({ user: users })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followerId))
      .where(eq(follows.followeeId, profileId))
      .orderBy(desc(follows.createdAt), desc(follows.followerId))
      .limit(RELATION_LIST_LIMIT),
    db
      .select({ user: users })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followeeId))
      .where(eq(follows.followerId, profileId))
      .orderBy(desc(follows.createdAt), desc(follows.followeeId))
      .limit(RELATION_LIST_LIMIT),
  ]);
  return {
    ...empty,
    ...flags,
    following: Boolean(flags?.following),
    blocking: Boolean(flags?.blocking),
    blockedByThem: Boolean(flags?.blockedByThem),
    followers: followerRows.map((row) => toUserRefDto(row.user)),
    followees: followeeRows.map((row) => toUserRefDto(row.user)),
  };
}

/**
 * True when `ownerId` has blocked `actorId` (docs/product/accounts.md#follows-and-blocks: a blocked member cannot
 * message the blocker, write on their wall or mention them). One query.
 */
export async function isBlockedBy(db: Db, ownerId: number, actorId: number): Promise<boolean> {
  if (!isValidId(ownerId) || !isValidId(actorId)) return false;
  const [row] = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(and(eq(blocks.blockerId, ownerId), eq(blocks.blockedId, actorId)))
    .limit(1);
  return row !== undefined;
}
