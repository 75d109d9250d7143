/**
 * The items moderation acts on — posts, comments, wall entries and messages — seen one way
 * (docs/product/moderation.md#content-actions): each is locked, read, soft-deleted, restored
 * and hidden through the functions here, inside the caller's transaction, so content actions,
 * reports and their audit entries change the same rows the same way.
 *
 * Soft delete by a moderator keeps the text (restorable); readers see «Удалено модератором».
 * `posts.comment_count` counts comments a reader can read, so deleting or restoring a comment
 * moves it by one in the same transaction (the rule of app/domain/comments/write.server.ts).
 */
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { comments, conversations, messages, posts, wallPosts } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { markdownExcerpt } from "~/lib/markdown.server";

export const CONTENT_TYPES = ["post", "comment", "wall_post", "message"] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** An item named by its kind and id. */
export interface ContentRef {
  type: ContentType;
  id: number;
}

/** What moderation needs to know of an item, read under its row lock. */
export interface ContentItem {
  type: ContentType;
  id: number;
  authorId: number;
  deletedAt: Date | null;
  /** True when a moderator deleted it (restorable); false for the author's own delete. */
  deletedByModerator: boolean;
  hiddenAt: Date | null;
  /** Plain text of the item for the report queue, ≤ 500 characters. */
  excerpt: string;
  /** The post of a comment (and of a post: itself). */
  postId: number | null;
  /** The wall of a wall entry. */
  ownerId: number | null;
  /** The conversation of a message. */
  conversationId: number | null;
  conversationKind: "group" | "personal" | "public" | null;
}

const NOT_FOUND: Record<ContentType, [string, string]> = {
  post: ["Пост не найден", "post_not_found"],
  comment: ["Комментарий не найден", "comment_not_found"],
  wall_post: ["Запись на стене не найдена", "wall_post_not_found"],
  message: ["Сообщение не найдено", "message_not_found"],
};

/** The NotFound of an item of `type` («Пост не найден», `post_not_found`…). */
export function itemNotFound(type: ContentType): NotFound {
  const [message, code] = NOT_FOUND[type];
  return new NotFound(message, code);
}

function plain(text: string, max = 500): string {
  return markdownExcerpt(text, max);
}

/**
 * Item `ref` read with its row locked (FOR UPDATE) in transaction `tx`, or null when there is
 * no such item (or the id is malformed). Lock order: the item row first, then anything else.
 */
export async function lockItem(tx: Db | Tx, ref: ContentRef): Promise<ContentItem | null> {
  if (!isValidId(ref.id)) return null;
  switch (ref.type) {
    case "post": {
      const [row] = await tx
        .select({
          id: posts.id,
          authorId: posts.authorId,
          deletedAt: posts.deletedAt,
          deletedById: posts.deletedById,
          hiddenAt: posts.hiddenAt,
          title: posts.title,
          excerpt: posts.excerpt,
        })
        .from(posts)
        .where(eq(posts.id, ref.id))
        .for("update");
      if (!row) return null;
      return {
        ...base(ref, row),
        // An author deleting their own post sets deleted_by_id to themselves (deleteOwnPost, docs/product/content.md#posts).
        deletedByModerator: row.deletedAt !== null && row.deletedById !== row.authorId,
        excerpt: `${row.title}: ${row.excerpt}`.slice(0, 500),
        postId: row.id,
      };
    }
    case "comment": {
      const [row] = await tx.select().from(comments).where(eq(comments.id, ref.id)).for("update");
      if (!row) return null;
      return { ...base(ref, row), deletedByModerator: row.deletedByModerator, excerpt: plain(row.body), postId: row.postId };
    }
    case "wall_post": {
      const [row] = await tx.select().from(wallPosts).where(eq(wallPosts.id, ref.id)).for("update");
      if (!row) return null;
      return { ...base(ref, row), deletedByModerator: row.deletedAt !== null, excerpt: plain(row.body), ownerId: row.ownerId };
    }
    case "message": {
      const [row] = await tx
        .select({ message: messages, kind: conversations.kind })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(eq(messages.id, ref.id))
        .for("update", { of: messages });
      if (!row) return null;
      return {
        ...base(ref, row.message),
        deletedByModerator: row.message.deletedById !== null,
        excerpt: row.message.body.slice(0, 500),
        conversationId: row.message.conversationId,
        conversationKind: row.kind,
      };
    }
  }
}

function base(ref: ContentRef, row: { authorId: number; deletedAt: Date | null; hiddenAt: Date | null }) {
  return {
    type: ref.type,
    id: ref.id,
    authorId: row.authorId,
    deletedAt: row.deletedAt,
    hiddenAt: row.hiddenAt,
    postId: null,
    ownerId: null,
    conversationId: null,
    conversationKind: null,
  };
}

/**
 * Soft-deletes `item` as moderator `actorId` at `now` (the caller checked it is not deleted): the
 * text is kept for a restore, a pinned post or wall entry is unpinned, and a comment leaves its
 * post's comment_count.
 */
export async function markDeleted(tx: Db | Tx, item: ContentItem, actorId: number, now: Date): Promise<void> {
  switch (item.type) {
    case "post":
      await tx.update(posts).set({ deletedAt: now, deletedById: actorId, pinnedAt: null }).where(eq(posts.id, item.id));
      return;
    case "comment":
      await tx.update(comments).set({ deletedAt: now, deletedById: actorId, deletedByModerator: true }).where(eq(comments.id, item.id));
      await tx
        .update(posts)
        .set({ commentCount: sql`${posts.commentCount} - 1` })
        .where(eq(posts.id, item.postId!));
      return;
    case "wall_post":
      await tx.update(wallPosts).set({ deletedAt: now, deletedById: actorId, pinnedAt: null }).where(eq(wallPosts.id, item.id));
      return;
    case "message":
      await tx.update(messages).set({ deletedAt: now, deletedById: actorId }).where(eq(messages.id, item.id));
      return;
  }
}

/**
 * Brings a moderator-deleted `item` back (the caller checked `deletedByModerator`), visible as
 * before; a comment rejoins its post's comment_count. Hiding by reports is cleared too: the
 * moderator has decided.
 */
export async function markRestored(tx: Db | Tx, item: ContentItem): Promise<void> {
  switch (item.type) {
    case "post":
      await tx.update(posts).set({ deletedAt: null, deletedById: null, hiddenAt: null }).where(eq(posts.id, item.id));
      return;
    case "comment":
      await tx.update(comments).set({ deletedAt: null, deletedById: null, deletedByModerator: false, hiddenAt: null }).where(eq(comments.id, item.id));
      await tx
        .update(posts)
        .set({ commentCount: sql`${posts.commentCount} + 1` })
        .where(eq(posts.id, item.postId!));
      return;
    case "wall_post":
      await tx.update(wallPosts).set({ deletedAt: null, deletedById: null, hiddenAt: null }).where(eq(wallPosts.id, item.id));
      return;
    case "message":
      await tx.update(messages).set({ deletedAt: null, deletedById: null, hiddenAt: null }).where(eq(messages.id, item.id));
      return;
  }
}

/** Hides `item` (the hide threshold) at `now`, or shows it again with `now` null (a moderator's decision). */
export async function setHidden(tx: Db | Tx, item: ContentItem, now: Date | null): Promise<void> {
  switch (item.type) {
    case "post":
      await tx.update(posts).set({ hiddenAt: now }).where(eq(posts.id, item.id));
      return;
    case "comment":
      await tx.update(comments).set({ hiddenAt: now }).where(eq(comments.id, item.id));
      return;
    case "wall_post":
      await tx.update(wallPosts).set({ hiddenAt: now }).where(eq(wallPosts.id, item.id));
      return;
    case "message":
      await tx.update(messages).set({ hiddenAt: now }).where(eq(messages.id, item.id));
      return;
  }
}

/** The ids an audit entry or a notification needs to link to `item`. */
export function linkDetails(item: ContentItem): Record<string, unknown> {
  switch (item.type) {
    case "post":
      return {};
    case "comment":
      return { postId: item.postId };
    case "wall_post":
      return { ownerId: item.ownerId };
    case "message":
      return { conversationId: item.conversationId, conversationKind: item.conversationKind };
  }
}
