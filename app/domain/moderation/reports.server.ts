/**
 * Reports (flags) and the moderation queue (docs/product/moderation.md;
 * Discourse's flags and hide threshold; docs/product/moderation.md#reports and #hide-threshold).
 *
 * - Any member reports a post, comment, wall entry, message or profile they can see, with a
 *   reason (спам, мошенничество, оскорбления, другое + text). One open report per member per item
 *   (the partial unique index reports_one_open_per_reporter).
 * - Hide threshold: when members registered at least 7 days ago have 3 distinct open reports on
 *   an item, the item is hidden from everyone but moderators and its author until a moderator
 *   decides. Reports never hide what a moderator or admin wrote (as in Discourse). The item's row
 *   is locked while a report is filed, so concurrent reports count each other.
 * - Moderators work the queue grouped per item (with the count of reporters) and decide: dismiss
 *   (the item is shown again), delete the item, or suspend or mute its author (deleting the
 *   item too unless told not to). Every reporter is notified of the outcome (REPORT_HANDLED).
 */
import { and, asc, count, desc, eq, inArray, lte, max, min, or, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { comments, conversationMembers, conversations, messages, posts, reports, users, wallPosts } from "~/db/schema";
import { REPORT_OUTCOMES, REPORT_REASONS, REPORT_TARGET_TYPES } from "~/db/schema-moderation";
import { isUniqueViolation } from "~/db/errors";
import { Conflict, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { assertCleanText } from "~/lib/text";
import { isModeratorRole } from "../users/roles";
import { toUserRefDto, type UserRow } from "../users/users.server";
import { requireModerator } from "./access.server";
import { writeAudit } from "./audit.server";
import { itemNotFound, linkDetails, lockItem, markDeleted, setHidden, type ContentItem, type ContentType } from "./items.server";
import { parseReason } from "./input";
import { publishMessageChange } from "./message-frames.server";
import { closeOpenReports, reportLink } from "./queue.server";
import { afterSanctionCommitted, applySanctionInTransaction, parseSanctionInput, type AppliedSanction } from "./sanctions.server";
import {
  REPORT_REASON_LABELS,
  REPORT_TARGET_LABELS,
  type ReportDto,
  type ReportGroupDto,
  type ReportOutcome,
  type ReportReason,
  type ReportTargetType,
} from "./types";

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

function checkTargetType(type: unknown): ReportTargetType {
  if (!(REPORT_TARGET_TYPES as readonly unknown[]).includes(type)) {
    throw new ValidationFailed("На это нельзя пожаловаться", { targetType: ["Неизвестный вид материала"] }, "invalid_target");
  }
  return type as ReportTargetType;
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

/** What the queue shows of an item now. */
interface ItemView {
  state: ReportGroupDto["state"];
  excerpt: string | null;
  url: string | null;
}

const keyOf = (type: string, id: number) => `${type}:${id}`;

/** The current state, text and place of each item in `refs`: one query per kind of item present. */
async function describeItems(db: Db, refs: { targetType: ReportTargetType; targetId: number }[]): Promise<Map<string, ItemView>> {
  const views = new Map<string, ItemView>();
  const idsOf = (type: ReportTargetType) => [...new Set(refs.filter((r) => r.targetType === type).map((r) => r.targetId))];
  const state = (deletedAt: Date | null, hiddenAt: Date | null): ItemView["state"] => (deletedAt ? "deleted" : hiddenAt ? "hidden" : "visible");
  const jobs: Promise<void>[] = [];
  const postIds = idsOf("post");
  if (postIds.length > 0) {
    jobs.push(
      db
        .select({ id: posts.id, title: posts.title, excerpt: posts.excerpt, deletedAt: posts.deletedAt, hiddenAt: posts.hiddenAt })
        .from(posts)
        .where(inArray(posts.id, postIds))
        .then((rows) => {
          for (const r of rows)
            views.set(keyOf("post", r.id), { state: state(r.deletedAt, r.hiddenAt), excerpt: `${r.title}: ${r.excerpt}`.slice(0, 500), url: `/post/${r.id}` });
        }),
    );
  }
  const commentIds = idsOf("comment");
  if (commentIds.length > 0) {
    jobs.push(
      db
        .select({ id: comments.id, postId: comments.postId, body: comments.body, deletedAt: comments.deletedAt, hiddenAt: comments.hiddenAt })
        .from(comments)
        .where(inArray(comments.id, commentIds))
        .then((rows) => {
          for (const r of rows)
            views.set(keyOf("comment", r.id), {
              state: state(r.deletedAt, r.hiddenAt),
              excerpt: r.body.slice(0, 500),
              url: `/post/${r.postId}#comment-${r.id}`,
            });
        }),
    );
  }
  const wallIds = idsOf("wall_post");
  if (wallIds.length > 0) {
    jobs.push(
      db
        .select({ id: wallPosts.id, ownerId: wallPosts.ownerId, body: wallPosts.body, deletedAt: wallPosts.deletedAt, hiddenAt: wallPosts.hiddenAt })
        .from(wallPosts)
        .where(inArray(wallPosts.id, wallIds))
        .then((rows) => {
          for (const r of rows)
            views.set(keyOf("wall_post", r.id), { state: state(r.deletedAt, r.hiddenAt), excerpt: r.body.slice(0, 500), url: `/profile/${r.ownerId}` });
        }),
    );
  }
  const messageIds = idsOf("message");
  if (messageIds.length > 0) {
    jobs.push(
      db
        .select({
          id: messages.id,
          conversationId: messages.conversationId,
          kind: conversations.kind,
          body: messages.body,
          deletedAt: messages.deletedAt,
          hiddenAt: messages.hiddenAt,
        })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(inArray(messages.id, messageIds))
        .then((rows) => {
          for (const r of rows) {
            // Moderators are not members of private conversations: only the public chat has a page they can open.
            const url = r.kind === "public" ? `/profile/conversations?group=${r.conversationId}` : null;
            views.set(keyOf("message", r.id), { state: state(r.deletedAt, r.hiddenAt), excerpt: r.body.slice(0, 500) || null, url });
          }
        }),
    );
  }
  for (const id of idsOf("profile")) views.set(keyOf("profile", id), { state: "visible", excerpt: null, url: `/profile/${id}` });
  await Promise.all(jobs);
  return views;
}

type ReportRow = typeof reports.$inferSelect;

/** Builds the queue's groups from their open reports, the members they name and the items' views. */
function toGroups(
  groups: { targetType: ReportTargetType; targetId: number }[],
  rows: ReportRow[],
  people: Map<number, UserRow>,
  views: Map<string, ItemView>,
): ReportGroupDto[] {
  return groups.map((group) => {
    const own = rows.filter((r) => r.targetType === group.targetType && r.targetId === group.targetId).sort((a, b) => a.id - b.id);
    const newest = own[own.length - 1]!;
    const view = views.get(keyOf(group.targetType, group.targetId)) ?? { state: "gone" as const, excerpt: null, url: null };
    const reasonCounts = new Map<ReportReason, number>();
    for (const r of own) reasonCounts.set(r.reason, (reasonCounts.get(r.reason) ?? 0) + 1);
    const reportDtos: ReportDto[] = own.map((r) => ({
      id: r.id,
      reporter: toUserRefDto(people.get(r.reporterId)!),
      reason: r.reason,
      reasonLabel: REPORT_REASON_LABELS[r.reason],
      details: r.details,
      status: r.status,
      outcome: r.outcome,
      createdAt: r.createdAt.toISOString(),
    }));
    return {
      targetType: group.targetType,
      targetId: group.targetId,
      targetLabel: REPORT_TARGET_LABELS[group.targetType],
      url: view.url,
      targetUser: toUserRefDto(people.get(newest.targetUserId)!),
      excerpt: view.excerpt ?? newest.excerpt,
      state: view.state,
      reporterCount: new Set(own.map((r) => r.reporterId)).size,
      reasons: REPORT_REASONS.filter((reason) => reasonCounts.has(reason)).map((reason) => ({
        reason,
        label: REPORT_REASON_LABELS[reason],
        count: reasonCounts.get(reason)!,
      })),
      reports: reportDtos,
      firstReportedAt: own[0]!.createdAt.toISOString(),
      lastReportedAt: newest.createdAt.toISOString(),
    };
  });
}

async function loadGroups(db: Db, groups: { targetType: ReportTargetType; targetId: number }[]): Promise<ReportGroupDto[]> {
  if (groups.length === 0) return [];
  const match = or(...groups.map((g) => and(eq(reports.targetType, g.targetType), eq(reports.targetId, g.targetId))))!;
  const rows = await db
    .select()
    .from(reports)
    .where(and(eq(reports.status, "open"), match));
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.flatMap((r) => [r.reporterId, r.targetUserId]))];
  const [people, views] = await Promise.all([
    db
      .select()
      .from(users)
      .where(inArray(users.id, ids))
      .then((list) => new Map(list.map((u) => [u.id, u]))),
    describeItems(db, groups),
  ]);
  // A group whose reports were decided meanwhile has no open report left: it leaves the answer.
  const withReports = groups.filter((g) => rows.some((r) => r.targetType === g.targetType && r.targetId === g.targetId));
  return toGroups(withReports, rows, people, views);
}

/**
 * The moderation queue for moderator `actorId`: items with open reports, the most reporters
 * first, then the oldest report first, each with its reports, reporters, reasons and the item's
 * state and text now. Five to nine queries whatever the page size (groups, count, reports,
 * members, one per kind of item). Throws Forbidden (`not_moderator`).
 */
export async function listReportQueue(db: Db, actorId: number, params: PageParams): Promise<Page<ReportGroupDto>> {
  await requireModerator(db, actorId);
  const reporterCount = sql<number>`count(distinct ${reports.reporterId})`.mapWith(Number);
  const firstAt = min(reports.createdAt);
  const [groups, [total]] = await Promise.all([
    db
      .select({ targetType: reports.targetType, targetId: reports.targetId, reporters: reporterCount, firstAt, lastAt: max(reports.createdAt) })
      .from(reports)
      .where(eq(reports.status, "open"))
      .groupBy(reports.targetType, reports.targetId)
      .orderBy(desc(reporterCount), asc(firstAt), asc(reports.targetType), asc(reports.targetId))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db
      .select({ value: sql<number>`count(distinct (${reports.targetType}, ${reports.targetId}))`.mapWith(Number) })
      .from(reports)
      .where(eq(reports.status, "open")),
  ]);
  return toPage(await loadGroups(db, groups), total?.value ?? 0, params);
}

/**
 * One item of the queue (its open reports) for moderator `actorId`. Throws Forbidden
 * (`not_moderator`), ValidationFailed (`invalid_target`), NotFound (`report_not_found` when the
 * item has no open report).
 */
export async function getReportGroup(db: Db, actorId: number, targetType: ReportTargetType, targetId: number): Promise<ReportGroupDto> {
  await requireModerator(db, actorId);
  const type = checkTargetType(targetType);
  const [group] = isValidId(targetId) ? await loadGroups(db, [{ targetType: type, targetId }]) : [];
  if (!group || group.reports.length === 0) throw new NotFound("Открытых жалоб на это нет", "report_not_found");
  return group;
}

export interface ResolveReportsInput {
  targetType: ReportTargetType;
  targetId: number;
  outcome: ReportOutcome;
  /**
   * The moderator's explanation (≤ 1000 characters) kept with the reports and in the audit log;
   * required for suspend and mute, where it is the sanction's reason shown to the author.
   */
  reason?: string | null;
  /** suspend and mute: when the sanction ends; null for good. */
  endsAt?: Date | null;
  /** suspend and mute of an item's author: delete the item too (default true); false shows it again. */
  deleteItem?: boolean;
}

/** What deciding an item's reports did. */
export interface ResolveReportsResult {
  targetType: ReportTargetType;
  targetId: number;
  outcome: ReportOutcome;
  /** How many open reports were closed (each reporter is notified). */
  resolvedReports: number;
  /** The item's state after: for a profile always "visible". */
  itemState: "visible" | "deleted" | "gone";
  /** The sanction applied (suspend, mute), or null. */
  sanctionId: number | null;
}

/**
 * Moderator `actorId` decides every open report of one item (docs/product/moderation.md#reports):
 * `dismiss` (the item is shown again if hidden), `delete` (soft delete of the item; not for a
 * profile), `suspend` or `mute` the reported member with `reason` and `endsAt` (deleting the item
 * too unless `deleteItem` is false). One transaction: the item and the reports are locked, the
 * decision, the sanction, the deletion, the closing of the reports and their audit entries are
 * written together. After the commit reporters are notified (REPORT_HANDLED), a suspension
 * closes the member's live connections, and chats see a changed message.
 * Throws Forbidden (`not_moderator`, `sanction_self`, `cannot_sanction_staff`), ValidationFailed
 * (`invalid_target`, `invalid_outcome`, `reason_required`, `invalid_reason`, `invalid_period`,
 * `invalid_text`), NotFound (`report_not_found`), Conflict (`reports_already_resolved` when
 * another moderator decided first). A refusal changes nothing.
 */
export async function resolveReports(db: Db, actorId: number, input: ResolveReportsInput, now: Date = new Date()): Promise<ResolveReportsResult> {
  const targetType = checkTargetType(input.targetType);
  const { outcome, targetId } = input;
  if (!(REPORT_OUTCOMES as readonly unknown[]).includes(outcome)) {
    throw new ValidationFailed("Выберите решение", { outcome: ["Выберите решение"] }, "invalid_outcome");
  }
  if (outcome === "delete" && targetType === "profile") {
    throw new ValidationFailed(
      "Профиль нельзя удалить: заблокируйте участника или переведите его в «только чтение»",
      { outcome: ["Выберите другое решение"] },
      "invalid_outcome",
    );
  }
  const sanctionInput =
    outcome === "suspend" || outcome === "mute" ? parseSanctionInput({ kind: outcome, reason: input.reason ?? "", endsAt: input.endsAt ?? null }, now) : null;
  const reason = sanctionInput ? sanctionInput.reason : parseReason(input.reason, { required: false });
  if (!isValidId(targetId)) throw new NotFound("Жалоб на это нет", "report_not_found");

  const result = await db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    const item = targetType === "profile" ? null : await lockItem(tx, { type: targetType as ContentType, id: targetId });
    const open = await tx
      .select()
      .from(reports)
      .where(and(eq(reports.targetType, targetType), eq(reports.targetId, targetId), eq(reports.status, "open")))
      .orderBy(asc(reports.id))
      .for("update");
    if (open.length === 0) {
      const [any] = await tx
        .select({ value: count() })
        .from(reports)
        .where(and(eq(reports.targetType, targetType), eq(reports.targetId, targetId)));
      if ((any?.value ?? 0) > 0) throw new Conflict("Эти жалобы уже рассмотрены", "reports_already_resolved");
      throw new NotFound("Жалоб на это нет", "report_not_found");
    }
    const targetUserId = open[0]!.targetUserId;
    const reportIds = open.map((r) => r.id);
    let applied: AppliedSanction | null = null;
    let deleted = false;
    let shownAgain = false;

    if (sanctionInput) applied = await applySanctionInTransaction(tx, actor, targetUserId, sanctionInput, now, { reportIds });
    if (item && item.deletedAt === null && (outcome === "delete" || (applied && input.deleteItem !== false))) {
      await markDeleted(tx, item, actor.id, now);
      await writeAudit(tx, {
        actorId: actor.id,
        action: "content.delete",
        targetType: item.type,
        targetId: item.id,
        targetUserId: item.authorId,
        reason,
        details: { ...linkDetails(item), reportIds, excerpt: item.excerpt.slice(0, 200) },
      });
      deleted = true;
    } else if (item && item.deletedAt === null && item.hiddenAt) {
      await setHidden(tx, item, null);
      shownAgain = true;
    }
    const closed = await closeOpenReports(tx, { type: targetType, id: targetId }, outcome, actor.id, reason, now);
    await writeAudit(tx, {
      actorId: actor.id,
      action: "report.resolve",
      targetType: targetType === "profile" ? "user" : targetType,
      targetId,
      targetUserId,
      reason,
      details: { outcome, reportIds, reporters: new Set(open.map((r) => r.reporterId)).size, ...(item ? linkDetails(item) : {}) },
    });
    return { item, applied, deleted, shownAgain, closed, targetUserId };
  });

  if (result.applied) await afterSanctionCommitted(db, actorId, result.applied);
  if (result.item?.type === "message" && (result.deleted || result.shownAgain)) await publishMessageChange(db, result.item.id);
  eventBus(db).publish({
    type: "report.resolved",
    moderatorId: actorId,
    outcome,
    reports: result.closed,
    link: reportLink(result.item, targetType, targetId, result.targetUserId),
  });
  const itemState = targetType === "profile" ? "visible" : !result.item ? "gone" : result.deleted || result.item.deletedAt ? "deleted" : "visible";
  return { targetType, targetId, outcome, resolvedReports: result.closed.length, itemState, sanctionId: result.applied?.row.id ?? null };
}

/** How many items and reports are open (the /admin dashboard). Two aggregates in one query. */
export async function countOpenReports(db: Db): Promise<{ items: number; reports: number }> {
  const [row] = await db
    .select({
      items: sql<number>`count(distinct (${reports.targetType}, ${reports.targetId}))`.mapWith(Number),
      reports: sql<number>`count(*)`.mapWith(Number),
    })
    .from(reports)
    .where(eq(reports.status, "open"));
  return { items: row?.items ?? 0, reports: row?.reports ?? 0 };
}
