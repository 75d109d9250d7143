/**
 * The moderation queue of reports (docs/product/moderation.md#reports): open reports grouped per
 * item with what the item is now, and moderators' decisions on a group — dismiss (the item is
 * shown again), delete the item, or suspend or mute its author — after which every reporter is
 * notified of the outcome (REPORT_HANDLED). Filing reports: reports.server.ts.
 */
import { and, asc, count, desc, eq, inArray, max, min, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { comments, conversations, messages, posts, reports, users, wallPosts } from "~/db/schema";
import { REPORT_OUTCOMES, REPORT_REASONS } from "~/db/schema-moderation";
import { Conflict, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { toUserRefDto, type UserRow } from "../users/users.server";
import { requireModerator } from "./access.server";
import { writeAudit } from "./audit.server";
import { linkDetails, lockItem, markDeleted, setHidden, type ContentType } from "./items.server";
import { parseReason, checkTargetType } from "./input";
import { publishMessageChange } from "./message-frames.server";
import { closeOpenReports, reportLink } from "./queue.server";
import {
  afterSanctionCommitted,
  applySanctionInTransaction,
  parseSanctionInput,
  sanctionsInForceAmong,
  toSanctionDto,
  type AppliedSanction,
  type SanctionRow,
} from "./sanctions.server";
import {
  REPORT_REASON_LABELS,
  REPORT_TARGET_LABELS,
  type ReportDto,
  type ReportGroupDto,
  type ReportOutcome,
  type ReportReason,
  type ReportTargetType,
} from "./types";

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
  inForce: Map<number, { suspension: SanctionRow | null; mute: SanctionRow | null }>,
  now: Date,
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
    const sanctioned = inForce.get(newest.targetUserId);
    return {
      targetType: group.targetType,
      targetId: group.targetId,
      targetLabel: REPORT_TARGET_LABELS[group.targetType],
      url: view.url,
      targetUser: toUserRefDto(people.get(newest.targetUserId)!),
      targetUserSanctions: {
        suspension: sanctioned?.suspension ? toSanctionDto(sanctioned.suspension, now) : null,
        mute: sanctioned?.mute ? toSanctionDto(sanctioned.mute, now) : null,
      },
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
  const now = new Date();
  const [people, views, inForce] = await Promise.all([
    db
      .select()
      .from(users)
      .where(inArray(users.id, ids))
      .then((list) => new Map(list.map((u) => [u.id, u]))),
    describeItems(db, groups),
    sanctionsInForceAmong(db, [...new Set(rows.map((r) => r.targetUserId))], now),
  ]);
  // A group whose reports were decided meanwhile has no open report left: it leaves the answer.
  const withReports = groups.filter((g) => rows.some((r) => r.targetType === g.targetType && r.targetId === g.targetId));
  return toGroups(withReports, rows, people, views, inForce, now);
}

/**
 * The moderation queue for moderator `actorId`: items with open reports, the most reporters
 * first, then the oldest report first, each with its reports, reporters, reasons, the item's
 * state and text now, and the reported member's suspension and mute in force. Six to ten queries
 * whatever the page size (groups, count, reports, members, sanctions, one per kind of item). Throws Forbidden (`not_moderator`).
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
 * too unless `deleteItem` is false; the member's open profile reports are settled with the
 * sanction). One transaction: the item and the reports are locked, the
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

    // The item's reports close first, so a sanction settling the member's profile reports (a
    // profile in the queue is one) leaves this decision's reports to it.
    const closed = await closeOpenReports(tx, { type: targetType, id: targetId }, outcome, actor.id, reason, now);
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

  // Publishes the sanction and the member's other profile reports it settled.
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
