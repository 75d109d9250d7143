/**
 * Moderation (issue 10;
 * docs/decisions/0016-moderation.md): sanctions of members, reports (flags) on content and
 * profiles, the append-only audit log of every moderator and admin action, and the daily rollup
 * behind /admin/stats. Re-exported by schema.ts, so there is still one schema.
 *
 * The audit log refuses UPDATE and DELETE in the database itself: the trigger lives in the
 * hand-written migration drizzle/0011_moderation_audit_append_only.sql.
 */
import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema-core";
import {
  SANCTION_KINDS,
  REPORT_TARGET_TYPES,
  REPORT_REASONS,
  REPORT_STATUSES,
  REPORT_OUTCOMES,
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  STATS_METRICS,
} from "./moderation-values";

export * from "./moderation-values";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true });
const inList = (column: string, values: readonly string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

/**
 * Suspensions and mutes (docs/product/moderation.md#suspension-and-mute). A sanction is in
 * force while it is not lifted and `ends_at` is null (for good) or still ahead: it ends by time
 * with no job, every check compares with now. Rows are never deleted, so a member's page shows
 * current and past sanctions. A new sanction of a kind closes the one in force (lifted by the
 * same moderator), so at most one of each kind is in force; writers lock the member's row first.
 */
export const sanctions = pgTable(
  "sanctions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind", { enum: SANCTION_KINDS }).notNull(),
    reason: text("reason").notNull(),
    startsAt: at("starts_at").notNull().defaultNow(),
    /** Null: for good. */
    endsAt: at("ends_at"),
    createdById: integer("created_by_id")
      .notNull()
      .references(() => users.id),
    liftedAt: at("lifted_at"),
    liftedById: integer("lifted_by_id").references(() => users.id),
    liftReason: text("lift_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    index("sanctions_user_idx").on(t.userId, t.id),
    index("sanctions_unlifted_idx")
      .on(t.kind, t.userId)
      .where(sql`${t.liftedAt} is null`),
    check("sanctions_kind_known", inList("kind", SANCTION_KINDS)),
    check("sanctions_reason_length", sql`char_length(${t.reason}) between 1 and 1000`),
    check("sanctions_period", sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
    check("sanctions_lifted", sql`(${t.liftedAt} is null) = (${t.liftedById} is null)`),
  ],
);

/**
 * Reports (flags) of a post, comment, wall entry, message or profile
 * (docs/product/moderation.md#reports). The item is named by type and id without a foreign
 * key, so a report outlives an item its author deleted for good (wall entries) and the queue
 * still shows the `excerpt` taken when it was filed. `target_user_id` is the member reported
 * (the item's author, or the profile). One open report per member per item is a partial
 * unique index.
 */
export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    reporterId: integer("reporter_id")
      .notNull()
      .references(() => users.id),
    targetType: text("target_type", { enum: REPORT_TARGET_TYPES }).notNull(),
    /** The post, comment, wall entry or message id; the member id for a profile. */
    targetId: integer("target_id").notNull(),
    targetUserId: integer("target_user_id")
      .notNull()
      .references(() => users.id),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    /** The reporter's words; required for "other". */
    details: text("details").notNull().default(""),
    /** What the item said when reported (plain text, ≤ 500 characters). */
    excerpt: text("excerpt").notNull().default(""),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    outcome: text("outcome", { enum: REPORT_OUTCOMES }),
    resolvedById: integer("resolved_by_id").references(() => users.id),
    resolvedAt: at("resolved_at"),
    resolutionNote: text("resolution_note"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("reports_one_open_per_reporter")
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index("reports_open_target_idx")
      .on(t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index("reports_open_created_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'open'`),
    index("reports_target_user_idx").on(t.targetUserId, t.id),
    index("reports_reporter_idx").on(t.reporterId, t.id),
    check("reports_target_type_known", inList("target_type", REPORT_TARGET_TYPES)),
    check("reports_reason_known", inList("reason", REPORT_REASONS)),
    check("reports_status_known", inList("status", REPORT_STATUSES)),
    check("reports_outcome_known", sql`${t.outcome} is null or ${inList("outcome", REPORT_OUTCOMES)}`),
    check("reports_details_length", sql`char_length(${t.details}) <= 1000`),
    check("reports_other_has_details", sql`${t.reason} <> 'other' or char_length(${t.details}) > 0`),
    check("reports_excerpt_length", sql`char_length(${t.excerpt}) <= 500`),
    check("reports_resolved", sql`(${t.status} = 'open') = (${t.resolvedAt} is null and ${t.outcome} is null)`),
    check("reports_target_id_positive", sql`${t.targetId} > 0`),
  ],
);

/**
 * The audit log: who did what to which target, why and when, written in the same transaction
 * as the action. Append-only: a trigger (drizzle/0011) refuses UPDATE and DELETE on both
 * engines; TRUNCATE (wiping a demo database) stays an operator's act. `actor_id` is null for
 * what the site did by itself (the hide threshold).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id").references(() => users.id),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    targetType: text("target_type", { enum: AUDIT_TARGET_TYPES }).notNull(),
    /** The target's id; null for a setting (its key is in `details`). */
    targetId: integer("target_id"),
    /** The member concerned (the sanctioned member, the item's author): the "target member" filter. */
    targetUserId: integer("target_user_id").references(() => users.id),
    reason: text("reason"),
    /** What changed: from/to values, periods, the report ids… */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_actor_idx").on(t.actorId, t.id.desc().nullsFirst()),
    index("audit_log_target_user_idx").on(t.targetUserId, t.id.desc().nullsFirst()),
    index("audit_log_action_idx").on(t.action, t.id.desc().nullsFirst()),
    check("audit_log_action_known", inList("action", AUDIT_ACTIONS)),
    check("audit_log_target_type_known", inList("target_type", AUDIT_TARGET_TYPES)),
    check("audit_log_reason_length", sql`${t.reason} is null or char_length(${t.reason}) <= 1000`),
  ],
);

/**
 * The daily rollup of /admin/stats (docs/product/moderation.md#stats): one value per finished
 * Moscow day and metric, computed the first time a chart asks for that day (one indexed range
 * scan over created_at) and read from here ever after; the running day is always counted live.
 */
export const statsDaily = pgTable(
  "stats_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    metric: text("metric", { enum: STATS_METRICS }).notNull(),
    /** A count, or kopecks for the volumes. */
    value: bigint("value", { mode: "number" }).notNull(),
    computedAt: at("computed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.metric] }), check("stats_daily_metric_known", inList("metric", STATS_METRICS))],
);
