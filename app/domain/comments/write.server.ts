/**
 * Comments on posts (docs/product/content.md#comments, issue 3), the writing side: write or reply, edit by
 * the author, soft delete by the author or a moderator.
 *
 * posts.comment_count counts the comments a reader can read: +1 in the transaction that
 * writes a comment, −1 in the one that soft-deletes it (only on the first delete, so a
 * repeated delete never counts twice). Invariant: comment_count = number of the post's
 * comments with deleted_at null — the number a reader can count under the post.
 *
 * `comment.created` is published after the insert commits (docs/product/engineering.md#events-after-commit); edits and
 * deletes publish nothing, so an edit that adds a mention notifies no one.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, posts, users } from "~/db/schema";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { consumeLimit } from "~/lib/rate-limit.server";
import { mentionTargets, resolveCookedMentions } from "../mentions/mentions.server";
import { cookedColumns, cookedOf } from "../cooked/cooked.server";
import { deleteContent } from "../moderation/content.server";
import { assertMayPublish } from "../moderation/sanctions.server";
import { seesHidden } from "../moderation/visibility.server";
import type { UserRow } from "../users/users.server";
import { canModerate, toCommentDto, type CommentDto, type CommentRow, type DtoContext } from "./comments.server";
import { CommentBodySchema } from "./schemas";

/** The Russian message of a comment refused under a post a moderator closed (issue 10). */
export const COMMENTS_CLOSED_MESSAGE = "Комментарии к этому посту закрыты модератором";

/** The Russian message of the comment rate limit (docs/product/limits.md#rate-limits: 1 comment per 5 s). */
export const COMMENT_RATE_MESSAGE = "Комментировать можно не чаще одного раза в 5 секунд. Подождите немного.";

/** Validates a body with the form's schema, for callers that did not. Throws ValidationFailed. */
function checkBody(body: string): string {
  const parsed = CommentBodySchema.safeParse(body);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Проверьте текст комментария";
    throw new ValidationFailed(message, { body: [message] }, "invalid_comment");
  }
  return parsed.data;
}

/**
 * Writes a comment by `actor` under post `postId`, or a reply when `input.parentId` is set
 * (the parent must be a live comment of the same post). Adds one to posts.comment_count in
 * the same transaction, then publishes `comment.created` with the post's author, the
 * parent's author and the mentioned members (docs/product/content.md#comments).
 * Returns the new comment as its author sees it.
 * Throws ValidationFailed (`invalid_comment`) for an empty, NUL-holding or over-10 000-character
 * body; NotFound (`post_not_found` — also for a post a moderator deleted or reports hid from the
 * actor, `comment_not_found`); Conflict (`comment_deleted`) for a reply to a deleted comment,
 * (`comments_closed`, «Комментарии к этому посту закрыты») when a moderator closed the post —
 * moderators may still answer there; MemberMuted / AccountSuspended while the actor is sanctioned
 * (docs/product/moderation.md); RateLimited (429) for a second comment within 5 s (docs/product/limits.md#rate-limits).
 */
export async function createComment(db: Db, actor: UserRow, postId: number, input: { body: string; parentId?: number | null }): Promise<CommentDto> {
  const body = checkBody(input.body);
  const post = isValidId(postId)
    ? (
        await db
          .select({ id: posts.id, authorId: posts.authorId, deletedAt: posts.deletedAt, hiddenAt: posts.hiddenAt, closedAt: posts.commentsClosedAt })
          .from(posts)
          .where(eq(posts.id, postId))
          .limit(1)
      )[0]
    : undefined;
  if (!post || post.deletedAt || (post.hiddenAt && !seesHidden(actor, post.authorId))) throw new NotFound("Пост не найден", "post_not_found");
  await assertMayPublish(db, actor.id);
  if (post.closedAt && !canModerate(actor)) throw new Conflict(COMMENTS_CLOSED_MESSAGE, "comments_closed");

  let parent: { id: number; authorId: number; username: string } | undefined;
  if (input.parentId !== undefined && input.parentId !== null) {
    const found = isValidId(input.parentId)
      ? (
          await db
            .select({
              id: comments.id,
              postId: comments.postId,
              authorId: comments.authorId,
              deletedAt: comments.deletedAt,
              hiddenAt: comments.hiddenAt,
              username: users.username,
            })
            .from(comments)
            .innerJoin(users, eq(users.id, comments.authorId))
            .where(eq(comments.id, input.parentId))
            .limit(1)
        )[0]
      : undefined;
    if (!found || found.postId !== post.id || (found.hiddenAt && !seesHidden(actor, found.authorId))) {
      throw new NotFound("Комментарий, на который вы отвечаете, не найден", "comment_not_found");
    }
    if (found.deletedAt !== null) throw new Conflict("Нельзя ответить на удалённый комментарий", "comment_deleted");
    parent = found;
  }

  await consumeLimit(db, "comments", String(actor.id), COMMENT_RATE_MESSAGE);

  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(comments)
      .values({ postId: post.id, authorId: actor.id, parentId: parent?.id ?? null, body, ...cookedColumns(body) })
      .returning();
    await tx
      .update(posts)
      .set({ commentCount: sql`${posts.commentCount} + 1` })
      .where(eq(posts.id, post.id));
    return inserted!;
  });

  const [mentionedUserIds, mentions] = await Promise.all([mentionTargets(db, actor.id, body), resolveCookedMentions(db, [cookedOf(row)])]);
  eventBus(db).publish({
    type: "comment.created",
    commentId: row.id,
    postId: post.id,
    authorId: actor.id,
    postAuthorId: post.authorId,
    parentAuthorId: parent?.authorId ?? null,
    mentionedUserIds,
  });

  const parents: DtoContext["parents"] = new Map();
  if (parent) parents.set(parent.id, { id: parent.id, author: { id: parent.authorId, username: parent.username } });
  return toCommentDto(row, actor, { viewer: actor, mentions, liked: new Set(), parents });
}

/** Comment `commentId` of post `postId` with its author. Throws NotFound (`comment_not_found`). */
async function findComment(db: Db, postId: number, commentId: number): Promise<{ comment: CommentRow; author: UserRow }> {
  const found =
    isValidId(postId) && isValidId(commentId)
      ? (
          await db
            .select({ comment: comments, author: users })
            .from(comments)
            .innerJoin(users, eq(users.id, comments.authorId))
            .where(and(eq(comments.id, commentId), eq(comments.postId, postId)))
            .limit(1)
        )[0]
      : undefined;
  if (!found) throw new NotFound("Комментарий не найден", "comment_not_found");
  return found;
}

/** The author of the comment a reply answers, for its DTO (one small query, replies only). */
async function parentsOf(db: Db, row: CommentRow): Promise<DtoContext["parents"]> {
  const parents: DtoContext["parents"] = new Map();
  if (row.parentId === null) return parents;
  const [found] = await db
    .select({ id: comments.id, authorId: users.id, username: users.username })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId))
    .where(eq(comments.id, row.parentId))
    .limit(1);
  if (found) parents.set(found.id, { id: found.id, author: { id: found.authorId, username: found.username } });
  return parents;
}

/**
 * Replaces the text of comment `commentId` (under post `postId`) and marks it edited.
 * Only its author may (docs/product/content.md#comments: the author may edit). Returns the updated comment.
 * Throws ValidationFailed (`invalid_comment`), NotFound (`comment_not_found`), Conflict
 * (`comment_deleted`) for a deleted comment, Forbidden (`not_comment_author`) for anyone else,
 * MemberMuted / AccountSuspended while the author is sanctioned (an edit publishes new text).
 */
export async function editComment(db: Db, actor: UserRow, postId: number, commentId: number, newBody: string): Promise<CommentDto> {
  const body = checkBody(newBody);
  const { comment, author } = await findComment(db, postId, commentId);
  if (comment.authorId !== actor.id) throw new Forbidden("Изменить комментарий может только его автор", "not_comment_author");
  if (comment.deletedAt !== null) throw new Conflict("Комментарий удалён, его нельзя изменить", "comment_deleted");
  await assertMayPublish(db, actor.id);
  const [row] = await db
    .update(comments)
    .set({ body, ...cookedColumns(body), editedAt: new Date() })
    .where(and(eq(comments.id, comment.id), isNull(comments.deletedAt)))
    .returning();
  if (!row) throw new Conflict("Комментарий удалён, его нельзя изменить", "comment_deleted");
  const [mentions, parents] = await Promise.all([resolveCookedMentions(db, [cookedOf(row)]), parentsOf(db, row)]);
  return toCommentDto(row, author, { viewer: actor, mentions, liked: new Set(), parents });
}

/**
 * Soft-deletes comment `commentId` (under post `postId`): the row stays, so the thread keeps
 * its shape and the replies stay, but the text is no longer shown («Комментарий удалён»).
 * The author, moderators and admins may (docs/product/content.md#comments). Records who deleted it and
 * subtracts one from posts.comment_count in the same transaction. Deleting a deleted comment
 * changes nothing. Returns the comment as it now is.
 * A moderator deleting someone else's comment goes through the moderation action (issue 10,
 * app/domain/moderation/content.server.ts): «Удалено модератором», restorable, audited.
 * Throws NotFound (`comment_not_found`) and Forbidden (`cannot_delete_comment`) for anyone else.
 */
export async function deleteComment(db: Db, actor: UserRow, postId: number, commentId: number): Promise<CommentDto> {
  const { comment, author } = await findComment(db, postId, commentId);
  if (comment.authorId !== actor.id && !canModerate(actor)) {
    throw new Forbidden("Удалить комментарий может только его автор или модератор", "cannot_delete_comment");
  }
  if (comment.authorId !== actor.id) {
    if (comment.deletedAt === null) await deleteContent(db, actor.id, { type: "comment", id: comment.id });
    const [now] = await db.select().from(comments).where(eq(comments.id, comment.id));
    return toCommentDto(now!, author, { viewer: actor, mentions: new Map(), liked: new Set(), parents: await parentsOf(db, comment) });
  }
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(comments)
      .set({ deletedAt: new Date(), deletedById: actor.id })
      .where(and(eq(comments.id, comment.id), isNull(comments.deletedAt)))
      .returning();
    if (!updated) return undefined;
    await tx
      .update(posts)
      .set({ commentCount: sql`${posts.commentCount} - 1` })
      .where(eq(posts.id, comment.postId));
    return updated;
  });
  const parents = await parentsOf(db, comment);
  return toCommentDto(row ?? comment, author, { viewer: actor, mentions: new Map(), liked: new Set(), parents });
}
