/**
 * Moderators' actions on content (docs/product/moderation.md#content-actions): delete and restore posts, comments, wall entries
 * and public-chat messages (soft delete, «Удалено модератором»), close a post to new comments
 * and open it again, move it to another category, pin up to 3 posts on the home feed.
 *
 * Each action is one transaction: the item's row is locked first, the state is checked under
 * the lock (acting on a deleted item, or twice, is a Conflict that changes nothing), the change
 * and its audit entry are written together. Deleting an item also decides its open reports
 * (their reporters hear it). Events go out after the commit.
 */
import { and, count, eq, isNotNull, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { posts } from "~/db/schema";
import { Conflict, Forbidden, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { findCategory } from "../posts/categories";
import { requireModerator } from "./access.server";
import { writeAudit } from "./audit.server";
import { parseReason } from "./input";
import { CONTENT_TYPES, itemNotFound, linkDetails, lockItem, markDeleted, markRestored, type ContentItem, type ContentRef } from "./items.server";
import { publishMessageChange } from "./message-frames.server";
import { closeOpenReports, reportLink, type ReportResolvedEvent } from "./queue.server";

/** How many posts may be pinned on the home feed at once (docs/product/moderation.md#content-actions). */
export const MAX_PINNED_POSTS = 3;
/** The advisory-lock class of home-feed pins: pins queue up, so two at once cannot both take the third place. */
const PIN_LOCK = 10_010;

/** The result of a content action: the item and its state after it. */
export interface ContentActionResult {
  type: ContentRef["type"];
  id: number;
  deleted: boolean;
  hidden: boolean;
}

function checkRef(ref: ContentRef): void {
  if (!CONTENT_TYPES.includes(ref.type)) {
    throw new ValidationFailed("Неизвестный вид материала", { type: ["Неизвестный вид материала"] }, "invalid_target");
  }
}

const alreadyDeleted = (item: ContentItem) =>
  new Conflict(item.deletedByModerator ? "Это уже удалено модератором" : "Автор уже удалил это сам", "already_deleted");

/**
 * Moderator `actorId` deletes item `ref` (soft delete: the text is kept for a restore; readers
 * see «Удалено модератором»), with an optional reason of up to 1000 characters. Messages: only
 * the public chat's (a reported private message is deleted from the report queue). Open reports
 * of the item are closed as "delete" and their reporters notified. Returns the item's state.
 * Throws Forbidden (`not_moderator`, `private_message`), NotFound (`post_not_found`…),
 * Conflict (`already_deleted`), ValidationFailed (`invalid_target`, `invalid_reason`, `invalid_text`).
 */
export async function deleteContent(
  db: Db,
  actorId: number,
  ref: ContentRef,
  input: { reason?: string | null } = {},
  now: Date = new Date(),
): Promise<ContentActionResult> {
  checkRef(ref);
  const reason = parseReason(input.reason, { required: false });
  const { item, resolved } = await db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    const item = await lockItem(tx, ref);
    if (!item) throw itemNotFound(ref.type);
    if (item.type === "message" && item.conversationKind !== "public") {
      throw new Forbidden("Модераторы удаляют сообщения общего чата; личные и групповые — только по жалобе", "private_message");
    }
    if (item.deletedAt) throw alreadyDeleted(item);
    return { item, resolved: await deleteInTransaction(tx, actor.id, item, reason, now) };
  });
  await afterDeleted(db, item, resolved);
  return { type: item.type, id: item.id, deleted: true, hidden: item.hiddenAt !== null };
}

/**
 * Deletes locked, undeleted `item` as moderator `actorId` inside `tx`: the soft delete, its audit
 * entry, and the closing of its open reports. Returns the report event to publish after commit
 * (null when no report was open). Used by deleteContent and the report queue.
 */
export async function deleteInTransaction(
  tx: Db | Tx,
  actorId: number,
  item: ContentItem,
  reason: string | null,
  now: Date,
): Promise<ReportResolvedEvent | null> {
  await markDeleted(tx, item, actorId, now);
  await writeAudit(tx, {
    actorId,
    action: "content.delete",
    targetType: item.type,
    targetId: item.id,
    targetUserId: item.authorId,
    reason,
    details: { ...linkDetails(item), excerpt: item.excerpt.slice(0, 200) },
  });
  const closed = await closeOpenReports(tx, { type: item.type, id: item.id }, "delete", actorId, reason, now);
  if (closed.length === 0) return null;
  return { type: "report.resolved", moderatorId: actorId, outcome: "delete", reports: closed, link: reportLink(item, item.type, item.id, item.authorId) };
}

/** After a delete committed: chat readers see the message go, reporters hear the outcome. */
export async function afterDeleted(db: Db, item: ContentItem, resolved: ReportResolvedEvent | null): Promise<void> {
  if (item.type === "message") await publishMessageChange(db, item.id);
  if (resolved) eventBus(db).publish(resolved);
}

/**
 * Moderator `actorId` restores item `ref` that a moderator deleted, with an optional reason:
 * it is shown again as before (and no longer hidden by reports). Returns the item's state.
 * Throws Forbidden (`not_moderator`), NotFound, Conflict (`not_deleted`; `deleted_by_author`: an
 * author's own delete is their choice and stays), ValidationFailed (`invalid_target`, `invalid_reason`).
 */
export async function restoreContent(db: Db, actorId: number, ref: ContentRef, input: { reason?: string | null } = {}): Promise<ContentActionResult> {
  checkRef(ref);
  const reason = parseReason(input.reason, { required: false });
  const item = await db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    const item = await lockItem(tx, ref);
    if (!item) throw itemNotFound(ref.type);
    if (!item.deletedAt) throw new Conflict("Это не удалено — восстанавливать нечего", "not_deleted");
    if (!item.deletedByModerator) throw new Conflict("Автор удалил это сам — восстановить нельзя", "deleted_by_author");
    await markRestored(tx, item);
    await writeAudit(tx, {
      actorId: actor.id,
      action: "content.restore",
      targetType: item.type,
      targetId: item.id,
      targetUserId: item.authorId,
      reason,
      details: linkDetails(item),
    });
    return item;
  });
  if (item.type === "message") await publishMessageChange(db, item.id);
  return { type: item.type, id: item.id, deleted: false, hidden: false };
}

/** Locks post `postId` for a post action; refuses a deleted one. */
async function lockLivePost(tx: Db | Tx, postId: number): Promise<ContentItem> {
  const item = await lockItem(tx, { type: "post", id: postId });
  if (!item) throw itemNotFound("post");
  if (item.deletedAt) throw new Conflict("Пост удалён модератором: сначала восстановите его", "already_deleted");
  return item;
}

/** The state of a post after a post action. */
export interface PostModerationState {
  id: number;
  categoryId: number;
  commentsClosed: boolean;
  pinned: boolean;
}

async function postState(tx: Db | Tx, postId: number): Promise<PostModerationState> {
  const [row] = await tx
    .select({ id: posts.id, categoryId: posts.categoryId, closed: posts.commentsClosedAt, pinned: posts.pinnedAt })
    .from(posts)
    .where(eq(posts.id, postId));
  return { id: row!.id, categoryId: row!.categoryId, commentsClosed: row!.closed !== null, pinned: row!.pinned !== null };
}

/**
 * Moderator `actorId` closes post `postId` to new comments (`closed` true) or opens it again
 * (false), with an optional reason. Existing comments stay. Returns the post's state.
 * Throws Forbidden (`not_moderator`), NotFound (`post_not_found`), Conflict (`already_deleted`,
 * `already_closed`, `already_open`), ValidationFailed (`invalid_reason`).
 */
export async function setPostCommentsClosed(
  db: Db,
  actorId: number,
  postId: number,
  closed: boolean,
  input: { reason?: string | null } = {},
  now: Date = new Date(),
): Promise<PostModerationState> {
  const reason = parseReason(input.reason, { required: false });
  return db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    const item = await lockLivePost(tx, postId);
    const current = await postState(tx, item.id);
    if (current.commentsClosed === closed) {
      throw closed ? new Conflict("Комментарии к посту уже закрыты", "already_closed") : new Conflict("Комментарии к посту и так открыты", "already_open");
    }
    await tx
      .update(posts)
      .set({ commentsClosedAt: closed ? now : null })
      .where(eq(posts.id, item.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: closed ? "post.close" : "post.open",
      targetType: "post",
      targetId: item.id,
      targetUserId: item.authorId,
      reason,
    });
    return { ...current, commentsClosed: closed };
  });
}

/**
 * Moderator `actorId` moves post `postId` to category `categoryId` (1–9), with an optional
 * reason. Returns the post's state. Throws Forbidden (`not_moderator`), NotFound
 * (`post_not_found`), Conflict (`already_deleted`, `same_category`), ValidationFailed
 * (`invalid_category`, `invalid_reason`).
 */
export async function movePost(
  db: Db,
  actorId: number,
  postId: number,
  categoryId: number,
  input: { reason?: string | null } = {},
): Promise<PostModerationState> {
  const category = Number.isInteger(categoryId) ? findCategory(categoryId) : undefined;
  if (!category) throw new ValidationFailed("Такого раздела нет", { categoryId: ["Выберите раздел из списка"] }, "invalid_category");
  const reason = parseReason(input.reason, { required: false });
  return db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    const item = await lockLivePost(tx, postId);
    const current = await postState(tx, item.id);
    if (current.categoryId === category.id) throw new Conflict(`Пост уже в разделе «${category.name}»`, "same_category");
    await tx.update(posts).set({ categoryId: category.id }).where(eq(posts.id, item.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: "post.move",
      targetType: "post",
      targetId: item.id,
      targetUserId: item.authorId,
      reason,
      details: { fromCategoryId: current.categoryId, toCategoryId: category.id },
    });
    return { ...current, categoryId: category.id };
  });
}

/**
 * Moderator `actorId` pins post `postId` on the home feed (`pinned` true; at most 3 at once, the
 * newest pin first) or unpins it. Pins queue on an advisory lock, so the limit holds under
 * concurrency. A hidden post cannot be pinned. Returns the post's state.
 * Throws Forbidden (`not_moderator`), NotFound (`post_not_found`), Conflict (`already_deleted`,
 * `post_hidden`, `already_pinned`, `not_pinned`, `pin_limit`), ValidationFailed (`invalid_reason`).
 */
export async function setPostPinned(
  db: Db,
  actorId: number,
  postId: number,
  pinned: boolean,
  input: { reason?: string | null } = {},
  now: Date = new Date(),
): Promise<PostModerationState> {
  const reason = parseReason(input.reason, { required: false });
  return db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    await tx.execute(sql`select pg_advisory_xact_lock(${PIN_LOCK})`);
    const item = await lockLivePost(tx, postId);
    const current = await postState(tx, item.id);
    if (current.pinned === pinned) {
      throw pinned ? new Conflict("Пост уже закреплён на главной", "already_pinned") : new Conflict("Пост не закреплён", "not_pinned");
    }
    if (pinned) {
      if (item.hiddenAt) throw new Conflict("Пост скрыт по жалобам: сначала рассмотрите их", "post_hidden");
      const [{ value }] = (await tx
        .select({ value: count() })
        .from(posts)
        .where(and(isNotNull(posts.pinnedAt)))) as [{ value: number }];
      if (value >= MAX_PINNED_POSTS) {
        throw new Conflict(`На главной уже закреплено ${MAX_PINNED_POSTS} поста: открепите один, чтобы закрепить этот`, "pin_limit");
      }
    }
    await tx
      .update(posts)
      .set({ pinnedAt: pinned ? now : null })
      .where(eq(posts.id, item.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: pinned ? "post.pin" : "post.unpin",
      targetType: "post",
      targetId: item.id,
      targetUserId: item.authorId,
      reason,
    });
    return { ...current, pinned };
  });
}
