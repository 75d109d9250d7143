/**
 * Grouped like notifications (docs/product/notifications.md#grouped-likes, Forem style): one row per (recipient,
 * type, group key) for each liked post, comment or wall entry, naming its latest liker and
 * counting every liker in `actor_ids`. The likes table is the truth the group follows: a liker
 * arriving joins it (and makes it unread again), a like taken back leaves it.
 */
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { blocks, commentLikes, notifications, postLikes, users, wallPostLikes } from "~/db/schema";
import type { LikeTarget } from "~/lib/events.server";
import { loadNotificationDtos, publishNotifications } from "./notifications.server";
import type { NotificationDto } from "./types";

/** A like as its events describe it (app/lib/events.server.ts like.created / like.removed). */
export interface LikeRef {
  target: LikeTarget;
  targetId: number;
  likerId: number;
  receiverId: number;
}

/** The notification type of a like on each kind of item. */
const LIKE_TYPES: Record<LikeTarget, "POST_LIKE" | "POST_COMMENT_LIKE" | "WALL_POST_LIKE"> = {
  post: "POST_LIKE",
  comment: "POST_COMMENT_LIKE",
  wall_post: "WALL_POST_LIKE",
};

/** The group key of a liked item: `post:12`, `comment:7`, `wall_post:3`. */
export function likeGroupKey(target: LikeTarget, targetId: number): string {
  return `${target}:${targetId}`;
}

/** SQL: the like of `like.likerId` on the item exists right now (the truth the notification follows). */
function likeExists(like: LikeRef) {
  switch (like.target) {
    case "post":
      return sql`exists (select 1 from ${postLikes} where ${postLikes.postId} = ${like.targetId} and ${postLikes.userId} = ${like.likerId})`;
    case "comment":
      return sql`exists (select 1 from ${commentLikes} where ${commentLikes.commentId} = ${like.targetId} and ${commentLikes.userId} = ${like.likerId})`;
    case "wall_post":
      return sql`exists (select 1 from ${wallPostLikes} where ${wallPostLikes.wallPostId} = ${like.targetId} and ${wallPostLikes.userId} = ${like.likerId})`;
  }
}

const groupOf = (like: LikeRef) =>
  and(
    eq(notifications.recipientId, like.receiverId),
    eq(notifications.type, LIKE_TYPES[like.target]),
    eq(notifications.groupKey, likeGroupKey(like.target, like.targetId)),
  );

/**
 * Adds liker `like.likerId` to the grouped like notification of the item's author
 * (docs/product/notifications.md#grouped-likes, Forem style): the first like creates it; a liker not yet in `actor_ids` is put
 * first, becomes the sender, raises `updated_at` and makes it unread again. A liker already in
 * the group changes nothing. Publishes the notification live when it changed.
 * `postId` is the post a liked comment belongs to (the link needs it).
 * Returns the notification as its live frame carries it when it changed, else null (own item,
 * blocked liker, like already taken back, liker already counted). Its `raisesUnread` is true
 * when the group was created or was read before, false when it was unread already, so the
 * browser's count (docs/product/notifications.md#unread-counting) rises once per unread row, as the server counts.
 *
 * Like events are handled concurrently, so a like taken back may be handled before the like
 * itself: after the upsert the liker is taken out again if the like is gone by then, so the
 * group always ends as the likes table says.
 */
export async function recordLike(db: Db, like: LikeRef & { postId: number | null }): Promise<NotificationDto | null> {
  if (like.likerId === like.receiverId) return null;
  const [liker] = await db
    .select({
      user: users,
      liked: sql<boolean>`${likeExists(like)}`,
      blocked: sql<boolean>`exists (select 1 from ${blocks} where ${blocks.blockerId} = ${like.receiverId} and ${blocks.blockedId} = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, like.likerId));
  if (!liker || !liker.liked || liker.blocked) return null;

  const likerId = sql`${like.likerId}::integer`;
  const stored = await db.transaction(async (tx) => {
    // The group's row, locked: the read state seen here is the one the upsert below changes,
    // even with other likers of the item handled at the same time.
    const [previous] = await tx.select({ readAt: notifications.readAt }).from(notifications).where(groupOf(like)).for("update");
    const [row] = await tx
      .insert(notifications)
      .values({
        recipientId: like.receiverId,
        type: LIKE_TYPES[like.target],
        senderId: like.likerId,
        postId: like.target === "wall_post" ? null : like.postId,
        commentId: like.target === "comment" ? like.targetId : null,
        wallPostId: like.target === "wall_post" ? like.targetId : null,
        groupKey: likeGroupKey(like.target, like.targetId),
        actorIds: [like.likerId],
      })
      .onConflictDoUpdate({
        target: [notifications.recipientId, notifications.type, notifications.groupKey],
        targetWhere: sql`${notifications.groupKey} is not null`,
        set: {
          actorIds: sql`array_prepend(${likerId}, ${notifications.actorIds})`,
          senderId: like.likerId,
          updatedAt: sql`now()`,
          readAt: null,
        },
        // A liker already counted changes nothing; a like gone by now must not make it unread.
        setWhere: sql`not (${likerId} = any(${notifications.actorIds})) and ${likeExists(like)}`,
      })
      .returning({ ...getTableColumns(notifications), inserted: sql<boolean>`(xmax = 0)` });
    if (!row) return null;
    // No row before the lock and none inserted here: another liker created it meanwhile, unread.
    const raisesUnread = previous ? previous.readAt !== null : row.inserted;
    return { row, raisesUnread };
  });
  if (!stored) return null;
  if (await takeOutUnliked(db, like)) return null;
  const [loaded] = await loadNotificationDtos(db, [stored.row.id]);
  // Taken back meanwhile and its group deleted: nothing to tell.
  if (!loaded) return null;
  const dto: NotificationDto = { ...loaded, raisesUnread: stored.raisesUnread };
  await publishNotifications(db, [{ recipientId: like.receiverId, dto }]);
  return dto;
}

/**
 * Takes liker `like.likerId` out of the grouped like notification once their like is gone
 * (docs/product/notifications.md#grouped-likes): the next liker becomes the sender, the read state and
 * `updated_at` stay as they were (a like taken back never makes it unread), and the row is
 * deleted when no liker is left. Does nothing while the like exists (liked again meanwhile).
 * Returns true when the liker was taken out.
 */
export async function takeOutUnliked(db: Db, like: LikeRef): Promise<boolean> {
  const likerId = sql`${like.likerId}::integer`;
  const [row] = await db
    .update(notifications)
    .set({
      actorIds: sql`array_remove(${notifications.actorIds}, ${likerId})`,
      senderId: sql`coalesce((array_remove(${notifications.actorIds}, ${likerId}))[1], ${notifications.senderId})`,
    })
    .where(and(groupOf(like), sql`${likerId} = any(${notifications.actorIds})`, sql`not ${likeExists(like)}`))
    .returning({ id: notifications.id });
  if (!row) return false;
  await db.delete(notifications).where(and(eq(notifications.id, row.id), sql`cardinality(${notifications.actorIds}) = 0`));
  return true;
}
