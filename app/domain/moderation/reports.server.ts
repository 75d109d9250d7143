/**
 * Filing reports (flags) (docs/product/moderation.md#reports; Discourse's flags and hide
 * threshold, docs/product/moderation.md#hide-threshold). The queue: report-queue.server.ts.
 *
 * - Any member reports a post, comment, wall entry, message or profile they can see, with a
 *   reason (спам, мошенничество, оскорбления, другое + text). One open report per member per item
 *   (the partial unique index reports_one_open_per_reporter).
 * - Hide threshold: when members registered at least 7 days ago have 3 distinct open reports on
 *   an item, the item is hidden from everyone but moderators and its author until a moderator
 *   decides. Reports never hide what a moderator or admin wrote (as in Discourse). The item's row
 *   is locked while a report is filed, so concurrent reports count each other.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { conversationMembers, posts, reports, users } from "~/db/schema";
import { REPORT_REASONS } from "~/db/schema-moderation";
import { isUniqueViolation } from "~/db/errors";
import { Conflict, NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { assertCleanText } from "~/lib/text";
import { isModeratorRole } from "../users/roles";
import { type UserRow } from "../users/users.server";
import { writeAudit } from "./audit.server";
import { itemNotFound, linkDetails, lockItem, setHidden, type ContentItem } from "./items.server";
import { checkTargetType } from "./input";
import { publishMessageChange } from "./message-frames.server";
import { type ReportReason, type ReportTargetType } from "./types";

/** Distinct reporters that hide an item (docs/product/moderation.md#hide-threshold). */
export const HIDE_THRESHOLD = 3;
/** How long a reporter must have been registered for their report to count towards hiding (days). */
export const HIDE_MIN_ACCOUNT_AGE_DAYS = 7;
/** The longest text a reporter may add (characters). */
export const REPORT_DETAILS_MAX = 1000;

export interface FileReportInput {
  targetType: ReportTargetType;
  /** The item's id; a member id for a profile. */
  targetId: number;
  reason: ReportReason;
  /** Required for "other"; up to 1000 characters. */
  details?: string | null;
}

/** A report as its reporter sees it once filed. */
export interface FiledReportDto {
  id: number;
  targetType: ReportTargetType;
  targetId: number;
  reason: ReportReason;
  createdAt: string;
}

/** The reporter's reason and text, checked. */
function checkReportInput(input: FileReportInput): { reason: ReportReason; details: string } {
  if (!(REPORT_REASONS as readonly unknown[]).includes(input.reason)) {
    throw new ValidationFailed("Выберите причину жалобы", { reason: ["Выберите причину жалобы"] }, "invalid_report_reason");
  }
  const raw = input.details ?? "";
  if (typeof raw !== "string") throw new ValidationFailed("Пояснение должно быть текстом", { details: ["Пояснение должно быть текстом"] }, "invalid_details");
  assertCleanText("details", raw);
  const details = raw.trim();
  if (details.length > REPORT_DETAILS_MAX) {
    const message = `Пояснение — не длиннее ${REPORT_DETAILS_MAX} символов`;
    throw new ValidationFailed(message, { details: [message] }, "invalid_details");
  }
  if (input.reason === "other" && details.length === 0) {
    throw new ValidationFailed("Опишите, что не так", { details: ["Опишите, что не так"] }, "details_required");
  }
  return { reason: input.reason, details };
}

const ownItem = () => new ValidationFailed("Нельзя пожаловаться на самого себя", undefined, "own_item");
const alreadyReported = () => new Conflict("Вы уже пожаловались на это — модераторы рассмотрят жалобу", "already_reported");

/**
 * Whether `reporter` may see locked `item` (what they cannot see they cannot report: NotFound).
 * Deleted items are refused as Conflict `already_deleted` by the caller first.
 */
async function assertVisibleTo(tx: Db | Tx, item: ContentItem, reporter: UserRow): Promise<void> {
  const moderator = isModeratorRole(reporter.role);
  if (item.hiddenAt && item.authorId !== reporter.id && !moderator) throw itemNotFound(item.type);
  if (item.type === "comment") {
    const [post] = await tx
      .select({ deletedAt: posts.deletedAt, hiddenAt: posts.hiddenAt, authorId: posts.authorId })
      .from(posts)
      .where(eq(posts.id, item.postId!));
    if (!post || post.deletedAt || (post.hiddenAt && post.authorId !== reporter.id && !moderator)) throw itemNotFound("comment");
  }
  if (item.type === "message" && item.conversationKind !== "public") {
    const [member] = await tx
      .select({ userId: conversationMembers.userId })
      .from(conversationMembers)
      .where(and(eq(conversationMembers.conversationId, item.conversationId!), eq(conversationMembers.userId, reporter.id)));
    if (!member) throw itemNotFound("message");
  }
}

/**
 * Member `reporterId` reports an item (`targetType` post, comment, wall_post, message or
 * profile, with its id) for `reason` (spam, fraud, abuse, or other with `details`). The item must
 * exist, be visible to them and not be theirs. Filing may hide the item (the hide threshold),
 * in the same transaction with an audit entry by the site itself. Returns the report.
 * Throws ValidationFailed (`invalid_target`, `invalid_report_reason`, `invalid_details`,
 * `details_required`, `invalid_text`, `own_item`), NotFound (`post_not_found`,
 * `comment_not_found`, `wall_post_not_found`, `message_not_found`, `member_not_found`), Conflict
 * (`already_deleted`, `already_reported`: one open report per member per item). A refusal changes nothing.
 */
export async function fileReport(db: Db, reporterId: number, input: FileReportInput, now: Date = new Date()): Promise<FiledReportDto> {
  const targetType = checkTargetType(input.targetType);
  const { reason, details } = checkReportInput(input);
  const targetId = input.targetId;
  let hiddenMessageId: number | null = null;
  try {
    const row = await db.transaction(async (tx) => {
      const [reporter] = isValidId(reporterId) ? await tx.select().from(users).where(eq(users.id, reporterId)) : [];
      if (!reporter) throw new NotFound("Участник не найден", "member_not_found");
      let item: ContentItem | null = null;
      let targetUserId: number;
      let excerpt: string;
      if (targetType === "profile") {
        const [profile] = isValidId(targetId) ? await tx.select().from(users).where(eq(users.id, targetId)).for("update") : [];
        if (!profile) throw new NotFound("Участник не найден", "member_not_found");
        if (profile.id === reporter.id) throw ownItem();
        targetUserId = profile.id;
        excerpt = `${profile.username}${profile.bio ? `: ${profile.bio}` : ""}`.slice(0, 500);
      } else {
        item = await lockItem(tx, { type: targetType, id: targetId });
        if (!item) throw itemNotFound(targetType);
        if (item.deletedAt) throw new Conflict("Это уже удалено", "already_deleted");
        await assertVisibleTo(tx, item, reporter);
        if (item.authorId === reporter.id) throw ownItem();
        targetUserId = item.authorId;
        excerpt = item.excerpt;
      }
      const [open] = await tx
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.reporterId, reporter.id), eq(reports.targetType, targetType), eq(reports.targetId, targetId), eq(reports.status, "open")));
      if (open) throw alreadyReported();
      const [inserted] = await tx
        .insert(reports)
        .values({ reporterId: reporter.id, targetType, targetId, targetUserId, reason, details, excerpt, createdAt: now })
        .returning();
      if (item && (await reachesHideThreshold(tx, item, now))) {
        await setHidden(tx, item, now);
        await writeAudit(tx, {
          actorId: null,
          action: "content.hide",
          targetType: item.type,
          targetId: item.id,
          targetUserId: item.authorId,
          details: { ...linkDetails(item), threshold: HIDE_THRESHOLD },
        });
        if (item.type === "message") hiddenMessageId = item.id;
      }
      return inserted!;
    });
    if (hiddenMessageId !== null) await publishMessageChange(db, hiddenMessageId);
    return { id: row.id, targetType: row.targetType, targetId: row.targetId, reason: row.reason, createdAt: row.createdAt.toISOString() };
  } catch (error) {
    // A second report of the same member racing the first lost on the unique index.
    if (isUniqueViolation(error)) throw alreadyReported();
    throw error;
  }
}

/**
 * Whether locked `item` should now be hidden: not hidden or deleted yet, not written by a
 * moderator or admin, and reported (open reports) by HIDE_THRESHOLD distinct members registered
 * at least HIDE_MIN_ACCOUNT_AGE_DAYS before `now`.
 */
async function reachesHideThreshold(tx: Db | Tx, item: ContentItem, now: Date): Promise<boolean> {
  if (item.hiddenAt || item.deletedAt) return false;
  const [author] = await tx.select({ role: users.role }).from(users).where(eq(users.id, item.authorId));
  if (!author || isModeratorRole(author.role)) return false;
  const registeredBy = new Date(now.getTime() - HIDE_MIN_ACCOUNT_AGE_DAYS * 86_400_000);
  const [row] = await tx
    .select({ value: sql<number>`count(distinct ${reports.reporterId})`.mapWith(Number) })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(and(eq(reports.targetType, item.type), eq(reports.targetId, item.id), eq(reports.status, "open"), lte(users.createdAt, registeredBy)));
  return (row?.value ?? 0) >= HIDE_THRESHOLD;
}
