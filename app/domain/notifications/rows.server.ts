/**
 * Reading notifications with what the reader needs to see them: the sender and the target
 * (docs/product/notifications.md#targets) — the post's title, the start of the comment, wall entry
 * or message — joined in the same query, so a page of notifications is one query whatever it
 * holds (no N+1).
 */
import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, messages, notifications, posts, users, wallPosts } from "~/db/schema";
import { TARGET_BODY_PREFIX, targetExcerpt } from "./targets";
import type { NotificationTargetDto } from "./types";

type Item = { deletedAt: AnyColumn; hiddenAt: AnyColumn };

/** True when readers must not see the item: deleted (by anyone) or hidden by the hide threshold. */
const gone = (item: Item) => sql<boolean>`(${item.deletedAt} is not null or ${item.hiddenAt} is not null)`;

/** The start of a body, enough for an excerpt (the database hands over at most TARGET_BODY_PREFIX characters). */
const prefix = (body: AnyColumn) => sql<string | null>`left(${body}, ${sql.raw(String(TARGET_BODY_PREFIX))})`;

/**
 * `select … from notifications` joined with the sender and the possible targets; add `where`,
 * `orderBy`, `limit`. A comment's post is found through the comment when the row has no post.
 */
export function selectNotificationRows(db: Db) {
  return db
    .select({
      notification: notifications,
      sender: users,
      postTitle: posts.title,
      postGone: gone(posts),
      commentBody: prefix(comments.body),
      commentGone: gone(comments),
      wallPostBody: prefix(wallPosts.body),
      wallPostGone: gone(wallPosts),
      messageBody: prefix(messages.body),
      messageGone: gone(messages),
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.senderId))
    .leftJoin(comments, eq(comments.id, notifications.commentId))
    .leftJoin(posts, eq(posts.id, sql`coalesce(${notifications.postId}, ${comments.postId})`))
    .leftJoin(wallPosts, eq(wallPosts.id, notifications.wallPostId))
    .leftJoin(messages, eq(messages.id, notifications.messageId));
}

export type NotificationJoinedRow = Awaited<ReturnType<ReturnType<typeof selectNotificationRows>["execute"]>>[number];

/** Rows of `where` with senders and targets, in the order asked (one query). */
export function loadNotificationRows(db: Db, where: SQL | undefined): Promise<NotificationJoinedRow[]> {
  return selectNotificationRows(db).where(where);
}

/**
 * The target of a joined row (docs/product/notifications.md#targets): the comment when the row
 * names one, else the post, the wall entry, the message; null when it names none (money, deals,
 * claims) or the item no longer exists. A deleted or hidden item keeps its kind with text null.
 */
export function toTargetDto(row: NotificationJoinedRow): NotificationTargetDto | null {
  const n = row.notification;
  const title = row.postTitle !== null && !row.postGone ? row.postTitle : null;
  if (n.commentId !== null) {
    if (row.commentBody === null) return null;
    return { kind: "comment", text: row.commentGone ? null : targetExcerpt(row.commentBody), postTitle: title };
  }
  if (n.postId !== null) return row.postTitle === null ? null : { kind: "post", text: title, postTitle: null };
  if (n.wallPostId !== null) {
    if (row.wallPostBody === null) return null;
    return { kind: "wall_post", text: row.wallPostGone ? null : targetExcerpt(row.wallPostBody), postTitle: null };
  }
  if (n.messageId !== null) {
    if (row.messageBody === null) return null;
    return { kind: "message", text: row.messageGone ? null : targetExcerpt(row.messageBody), postTitle: null };
  }
  return null;
}
