/**
 * Closing the open reports of an item (docs/product/moderation.md#reports), shared by the report
 * queue's decisions and by content actions taken outside it (a moderator who deletes a reported
 * post has decided its reports too). Runs inside the caller's transaction; the caller publishes
 * the returned event after the commit, so every reporter hears the outcome.
 */
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { reports, type ReportOutcome, type ReportTargetType } from "~/db/schema";
import type { DomainEvent } from "~/lib/events.server";
import type { ContentItem } from "./items.server";

export type ReportResolvedEvent = Extract<DomainEvent, { type: "report.resolved" }>;

/** What a REPORT_HANDLED notification links to: the item (`item`, null when gone), or the profile reported. */
export function reportLink(item: ContentItem | null, targetType: ReportTargetType, targetId: number, targetUserId: number): ReportResolvedEvent["link"] {
  if (targetType === "profile") return { subjectUserId: targetId };
  if (!item) return { subjectUserId: targetUserId };
  switch (item.type) {
    case "post":
      return { postId: item.id };
    case "comment":
      return { postId: item.postId, commentId: item.id };
    case "wall_post":
      return { wallPostId: item.id, subjectUserId: item.ownerId };
    case "message":
      return { conversationId: item.conversationId, messageId: item.id };
  }
}

/**
 * Closes every open report of the item (`targetType`, `targetId`) with `outcome` by moderator
 * `actorId` at `now` ("dismiss" → dismissed, others → actioned). Returns the closed reports, or
 * an empty list when none was open.
 */
export async function closeOpenReports(
  tx: Db | Tx,
  target: { type: ReportTargetType; id: number },
  outcome: ReportOutcome,
  actorId: number,
  note: string | null,
  now: Date,
): Promise<{ id: number; reporterId: number }[]> {
  return tx
    .update(reports)
    .set({ status: outcome === "dismiss" ? "dismissed" : "actioned", outcome, resolvedById: actorId, resolvedAt: now, resolutionNote: note })
    .where(and(eq(reports.targetType, target.type), eq(reports.targetId, target.id), eq(reports.status, "open")))
    .returning({ id: reports.id, reporterId: reports.reporterId });
}
