/**
 * Likes on posts, comments and wall posts (issue 3 items 2 and 10,
 * docs/product/content.md#likes, docs/product/limits.md#rate-limits). The primary keys of post_likes, comment_likes and wall_post_likes are the rule
 * "one like per member per item"; their CHECKs forbid liking one's own item. Each item's
 * `like_count` changes in the same transaction as the like row, and only when a row was
 * really inserted or deleted, so racing clicks never count twice.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { commentLikes, comments, postLikes, posts, wallPostLikes, wallPosts } from "~/db/schema";
import { Forbidden, NotFound } from "~/lib/errors";
import { eventBus, type LikeTarget } from "~/lib/events.server";
import { consumeLimit } from "~/lib/rate-limit.server";
import type { UserRow } from "../users/users.server";
import { isForeignKeyViolation } from "~/db/errors";

export type { LikeTarget };

/** The refusal shown when the hourly limit of likes is used up (docs/product/limits.md#rate-limits: 100 per hour). */
export const LIKE_LIMIT_MESSAGE = "Слишком много оценок: можно ставить и снимать не больше 100 в час. Попробуйте позже.";

export interface LikeState {
  liked: boolean;
  /** The item's like count after the change. */
  likeCount: number;
}

/** What a like needs to know of the item. */
interface LikedItem {
  authorId: number;
  /** The post a post or comment belongs to; null for a wall post. */
  postId: number | null;
  /** False for a deleted comment, or an item deleted by a moderator or hidden by reports: its likes may be taken back, but no new ones given. */
  open: boolean;
}

/** The queries of one kind of item; one implementation per like table keeps Drizzle's types exact. */
interface LikeStore {
  find(db: Db, id: number): Promise<LikedItem | undefined>;
  /** Inserts the like; false when it already existed. */
  insert(db: Db, id: number, userId: number, receiverId: number): Promise<boolean>;
  /** Deletes the like; the receiver it had, or undefined when there was none. */
  remove(db: Db, id: number, userId: number): Promise<number | undefined>;
  /** Adds `delta` to the item's like_count (0 just reads it); the new count. */
  adjust(db: Db, id: number, delta: number): Promise<number>;
  /** Which of `ids` `userId` has liked. */
  likedAmong(db: Db, userId: number, ids: number[]): Promise<number[]>;
  notFound(): NotFound;
  ownItem(): Forbidden;
}

const stores: Record<LikeTarget, LikeStore> = {
  post: {
    async find(db, id) {
      const [row] = await db
        .select({ authorId: posts.authorId, postId: posts.id, deletedAt: posts.deletedAt, hiddenAt: posts.hiddenAt })
        .from(posts)
        .where(eq(posts.id, id))
        .limit(1);
      // Deleted by a moderator or hidden by reports: no new likes (issue 10).
      return row && { authorId: row.authorId, postId: row.postId, open: row.deletedAt === null && row.hiddenAt === null };
    },
    async insert(db, id, userId, receiverId) {
      const rows = await db.insert(postLikes).values({ postId: id, userId, receiverId }).onConflictDoNothing().returning({ id: postLikes.postId });
      return rows.length > 0;
    },
    async remove(db, id, userId) {
      const [row] = await db
        .delete(postLikes)
        .where(and(eq(postLikes.postId, id), eq(postLikes.userId, userId)))
        .returning({ receiverId: postLikes.receiverId });
      return row?.receiverId;
    },
    async adjust(db, id, delta) {
      const [row] = await db
        .update(posts)
        .set({ likeCount: sql`${posts.likeCount} + ${delta}` })
        .where(eq(posts.id, id))
        .returning({ likeCount: posts.likeCount });
      return row?.likeCount ?? 0;
    },
    async likedAmong(db, userId, ids) {
      const rows = await db
        .select({ id: postLikes.postId })
        .from(postLikes)
        .where(and(eq(postLikes.userId, userId), inArray(postLikes.postId, ids)));
      return rows.map((r) => r.id);
    },
    notFound: () => new NotFound("Пост не найден", "post_not_found"),
    ownItem: () => new Forbidden("Нельзя оценить свой пост", "own_item"),
  },
  comment: {
    async find(db, id) {
      const [row] = await db
        .select({ authorId: comments.authorId, postId: comments.postId, deletedAt: comments.deletedAt, hiddenAt: comments.hiddenAt })
        .from(comments)
        .where(eq(comments.id, id))
        .limit(1);
      return row && { authorId: row.authorId, postId: row.postId, open: row.deletedAt === null && row.hiddenAt === null };
    },
    async insert(db, id, userId, receiverId) {
      const rows = await db.insert(commentLikes).values({ commentId: id, userId, receiverId }).onConflictDoNothing().returning({ id: commentLikes.commentId });
      return rows.length > 0;
    },
    async remove(db, id, userId) {
      const [row] = await db
        .delete(commentLikes)
        .where(and(eq(commentLikes.commentId, id), eq(commentLikes.userId, userId)))
        .returning({ receiverId: commentLikes.receiverId });
      return row?.receiverId;
    },
    async adjust(db, id, delta) {
      const [row] = await db
        .update(comments)
        .set({ likeCount: sql`${comments.likeCount} + ${delta}` })
        .where(eq(comments.id, id))
        .returning({ likeCount: comments.likeCount });
      return row?.likeCount ?? 0;
    },
    async likedAmong(db, userId, ids) {
      const rows = await db
        .select({ id: commentLikes.commentId })
        .from(commentLikes)
        .where(and(eq(commentLikes.userId, userId), inArray(commentLikes.commentId, ids)));
      return rows.map((r) => r.id);
    },
    notFound: () => new NotFound("Комментарий не найден", "comment_not_found"),
    ownItem: () => new Forbidden("Нельзя оценить свой комментарий", "own_item"),
  },
  wall_post: {
    async find(db, id) {
      const [row] = await db
        .select({ authorId: wallPosts.authorId, deletedAt: wallPosts.deletedAt, hiddenAt: wallPosts.hiddenAt })
        .from(wallPosts)
        .where(eq(wallPosts.id, id))
        .limit(1);
      return row && { authorId: row.authorId, postId: null, open: row.deletedAt === null && row.hiddenAt === null };
    },
    async insert(db, id, userId, receiverId) {
      const rows = await db
        .insert(wallPostLikes)
        .values({ wallPostId: id, userId, receiverId })
        .onConflictDoNothing()
        .returning({ id: wallPostLikes.wallPostId });
      return rows.length > 0;
    },
    async remove(db, id, userId) {
      const [row] = await db
        .delete(wallPostLikes)
        .where(and(eq(wallPostLikes.wallPostId, id), eq(wallPostLikes.userId, userId)))
        .returning({ receiverId: wallPostLikes.receiverId });
      return row?.receiverId;
    },
    async adjust(db, id, delta) {
      const [row] = await db
        .update(wallPosts)
        .set({ likeCount: sql`${wallPosts.likeCount} + ${delta}` })
        .where(eq(wallPosts.id, id))
        .returning({ likeCount: wallPosts.likeCount });
      return row?.likeCount ?? 0;
    },
    async likedAmong(db, userId, ids) {
      const rows = await db
        .select({ id: wallPostLikes.wallPostId })
        .from(wallPostLikes)
        .where(and(eq(wallPostLikes.userId, userId), inArray(wallPostLikes.wallPostId, ids)));
      return rows.map((r) => r.id);
    },
    notFound: () => new NotFound("Запись не найдена", "wall_post_not_found"),
    ownItem: () => new Forbidden("Нельзя оценить свою запись", "own_item"),
  },
};

/**
 * Likes the item if `actor` has not, takes the like back if they have (issue 3 item 2).
 * Returns the new state and the item's like count.
 * Throws NotFound (`post_not_found`, `comment_not_found`, `wall_post_not_found`) for an
 * unknown item (or a new like on a deleted comment), Forbidden (`own_item`) for the actor's
 * own item and RateLimited (429) past 100 likes given or taken back per hour (docs/product/limits.md#rate-limits).
 */
export async function toggleLike(db: Db, actor: UserRow, target: LikeTarget, targetId: number): Promise<LikeState> {
  return changeLike(db, actor, target, targetId, "toggle");
}

/**
 * Puts the like in state `liked` whatever it was: a page rendered before a like made in
 * another tab sends what its button showed, so a stale click never undoes the other one.
 * A request that changes nothing still counts against the limit. Returns and throws as
 * `toggleLike`.
 */
export async function setLike(db: Db, actor: UserRow, target: LikeTarget, targetId: number, liked: boolean): Promise<LikeState> {
  return changeLike(db, actor, target, targetId, liked);
}

async function changeLike(db: Db, actor: UserRow, target: LikeTarget, targetId: number, want: boolean | "toggle"): Promise<LikeState> {
  const store = stores[target];
  if (!isValidId(targetId)) throw store.notFound();
  const item = await store.find(db, targetId);
  if (!item) throw store.notFound();
  if (item.authorId === actor.id) throw store.ownItem();
  await consumeLimit(db, "likes", String(actor.id), LIKE_LIMIT_MESSAGE);

  let result: { state: LikeState; change: "created" | "removed" | null; receiverId: number };
  try {
    result = await db.transaction(async (tx) => {
      if (want !== false && item.open && (await store.insert(tx, targetId, actor.id, item.authorId))) {
        return { state: { liked: true, likeCount: await store.adjust(tx, targetId, 1) }, change: "created" as const, receiverId: item.authorId };
      }
      if (want === true) {
        if (!item.open) throw store.notFound();
        return { state: { liked: true, likeCount: await store.adjust(tx, targetId, 0) }, change: null, receiverId: item.authorId };
      }
      const receiverId = await store.remove(tx, targetId, actor.id);
      if (receiverId !== undefined) {
        return { state: { liked: false, likeCount: await store.adjust(tx, targetId, -1) }, change: "removed" as const, receiverId };
      }
      // Nothing to take back: a deleted comment never liked, or a racing request took it back first.
      if (want === "toggle" && !item.open) throw store.notFound();
      return { state: { liked: false, likeCount: await store.adjust(tx, targetId, 0) }, change: null, receiverId: item.authorId };
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw store.notFound();
    throw error;
  }

  const base = { target, targetId, likerId: actor.id, receiverId: result.receiverId };
  if (result.change === "created") eventBus(db).publish({ type: "like.created", ...base, postId: item.postId });
  if (result.change === "removed") eventBus(db).publish({ type: "like.removed", ...base });
  return result.state;
}

/** Which of `ids` (items of one kind) `viewerId` has liked; empty for a visitor. One query (none for no ids). */
export async function likedIds(db: Db, viewerId: number | null, target: LikeTarget, ids: number[]): Promise<Set<number>> {
  const valid = [...new Set(ids.filter(isValidId))];
  if (viewerId === null || valid.length === 0) return new Set();
  return new Set(await stores[target].likedAmong(db, viewerId, valid));
}
