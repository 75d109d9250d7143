/**
 * The moderation vocabulary (docs/product/moderation.md): sanction kinds, report targets, reasons,
 * statuses and outcomes, audit actions and targets, the stats metrics. Plain values, apart from
 * the tables in schema-moderation.ts (which re-exports them), so that forms and pages in the
 * browser can list them without bringing Drizzle's schema code along (a test of the build keeps
 * drizzle-orm out of the browser's chunks).
 */

export const SANCTION_KINDS = ["suspend", "mute"] as const;
export type SanctionKind = (typeof SANCTION_KINDS)[number];

export const REPORT_TARGET_TYPES = ["post", "comment", "wall_post", "message", "profile"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export const REPORT_REASONS = ["spam", "fraud", "abuse", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ["open", "dismissed", "actioned"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_OUTCOMES = ["dismiss", "delete", "suspend", "mute"] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** Every action the audit log records (docs/product/moderation.md#audit-log). */
export const AUDIT_ACTIONS = [
  "role.grant",
  "role.revoke",
  "sanction.suspend",
  "sanction.mute",
  "sanction.lift",
  "content.delete",
  "content.restore",
  "content.hide",
  "post.close",
  "post.open",
  "post.move",
  "post.pin",
  "post.unpin",
  "report.resolve",
  "settings.registration",
  "settings.rules",
  "settings.background",
  "claim.uphold",
  "claim.reject",
  "deal.resolve",
  "money.topup",
  "ad.approve",
  "ad.reject",
  "ad_slot.create",
  "ad_slot.edit",
  "track.upload",
  "track.edit",
  "track.move",
  "track.delete",
  "faq.create",
  "faq.edit",
  "faq.publish",
  "faq.unpublish",
  "faq.move",
  "faq.delete",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  "user",
  "post",
  "comment",
  "wall_post",
  "message",
  "setting",
  "claim",
  "deal",
  "ad",
  "ad_slot",
  "track",
  "faq_section",
  "faq_entry",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const STATS_METRICS = ["signups", "posts", "comments", "messages", "deals_created", "deals_completed", "transfer_volume", "deal_volume"] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];
