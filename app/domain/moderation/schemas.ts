/**
 * Form and query schemas of the moderation pages and /api routes (issue 10), shared with Conform
 * in the browser. Each turns what a form posts or a URL carries into the input of one domain
 * function; the domain checks again (a JSON caller may skip these), with the same messages.
 * Times typed by moderators are Moscow time (docs/product/interface.md), as «YYYY-MM-DDTHH:mm».
 */
import { z } from "zod";
import { REPORT_OUTCOMES, REPORT_REASONS, REPORT_TARGET_TYPES, SANCTION_KINDS, AUDIT_ACTIONS } from "~/db/moderation-values";
import { isValidId } from "~/lib/ids";
import { cleanTextRefinement } from "~/lib/text";
import { REASON_MAX } from "./input";
import { GRANTABLE_RANKS } from "./types";

const HOUR_MS = 3_600_000;

/** The periods a moderator picks for a sanction; "until" takes a date and time, "forever" has no end. */
export const SANCTION_PERIODS = ["1h", "1d", "3d", "7d", "30d", "365d", "until", "forever"] as const;
export type SanctionPeriod = (typeof SANCTION_PERIODS)[number];
export const SANCTION_PERIOD_LABELS: Record<SanctionPeriod, string> = {
  "1h": "1 час",
  "1d": "1 день",
  "3d": "3 дня",
  "7d": "Неделя",
  "30d": "30 дней",
  "365d": "Год",
  until: "До даты",
  forever: "Навсегда",
};
const PERIOD_HOURS: Partial<Record<SanctionPeriod, number>> = { "1h": 1, "1d": 24, "3d": 72, "7d": 168, "30d": 720, "365d": 8760 };

/** A Moscow date and time «YYYY-MM-DDTHH:mm» (a datetime-local field) as a moment; null when malformed. */
export function moscowDateTime(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(`${value}:00+03:00`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The end of a sanction for `period` from `now`: null for "forever", the Moscow time `until`
 * for "until" (an invalid date becomes Invalid Date, which the domain refuses as `invalid_period`).
 */
export function sanctionEndsAt(period: SanctionPeriod, until: string | undefined, now: Date): Date | null {
  if (period === "forever") return null;
  if (period === "until") return moscowDateTime(until ?? "") ?? new Date(Number.NaN);
  return new Date(now.getTime() + PERIOD_HOURS[period]! * HOUR_MS);
}

const reasonField = (required: boolean) => {
  // A form left empty arrives without the field (Conform drops empty values): the same message as "".
  const base = z
    .string({ error: "Укажите причину" })
    .trim()
    .max(REASON_MAX, `Причина — не длиннее ${REASON_MAX} символов`)
    .refine(...cleanTextRefinement());
  return required ? base.min(1, "Укажите причину") : base.optional();
};
const idField = (message: string) => z.coerce.number({ error: message }).refine(isValidId, message);

/** Suspend or mute a member (applySanction): kind, period (with `until` for "until") and reason. */
export const SanctionFormSchema = z
  .object({
    kind: z.enum(SANCTION_KINDS, { error: "Выберите блокировку или режим «только чтение»" }),
    period: z.enum(SANCTION_PERIODS, { error: "Выберите срок" }),
    until: z.string().trim().optional(),
    reason: reasonField(true),
  })
  .superRefine((value, ctx) => {
    if (value.period === "until" && !moscowDateTime(value.until ?? "")) {
      ctx.addIssue({ code: "custom", path: ["until"], message: "Укажите дату и время окончания" });
    }
  });

/** Lift a sanction (liftSanction). */
export const LiftSanctionFormSchema = z.object({ sanctionId: idField("Ограничение не найдено"), reason: reasonField(false) });

/** Grant or revoke a rank (grantRank / revokeRank). */
export const RankFormSchema = z.object({
  intent: z.enum(["grant", "revoke"], { error: "Выберите действие" }),
  rank: z.enum(GRANTABLE_RANKS, { error: "Такой роли нет" }),
  reason: reasonField(false),
});

/** Report an item (fileReport). */
export const ReportFormSchema = z
  .object({
    targetType: z.enum(REPORT_TARGET_TYPES, { error: "На это нельзя пожаловаться" }),
    targetId: idField("Не найдено"),
    reason: z.enum(REPORT_REASONS, { error: "Выберите причину жалобы" }),
    details: z
      .string()
      .trim()
      .max(1000, "Пояснение — не длиннее 1000 символов")
      .refine(...cleanTextRefinement())
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.reason === "other" && !value.details) ctx.addIssue({ code: "custom", path: ["details"], message: "Опишите, что не так" });
  });

/**
 * Decide an item's reports (resolveReports); suspend and mute need the reason (shown to the
 * member) and `period` (with `until` for "until"); `keepItem` shows the item again instead of
 * deleting it.
 */
export const ResolveReportsFormSchema = z
  .object({
    targetType: z.enum(REPORT_TARGET_TYPES, { error: "Неизвестный вид материала" }),
    targetId: idField("Жалоб на это нет"),
    outcome: z.enum(REPORT_OUTCOMES, { error: "Выберите решение" }),
    reason: reasonField(false),
    period: z.enum(SANCTION_PERIODS, { error: "Выберите срок" }).optional(),
    until: z.string().trim().optional(),
    keepItem: z.literal("on").optional(),
  })
  .superRefine((value, ctx) => {
    if (value.outcome !== "suspend" && value.outcome !== "mute") return;
    if (!value.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "Укажите причину: её увидит участник" });
    if (!value.period) ctx.addIssue({ code: "custom", path: ["period"], message: "Выберите срок" });
    if (value.period === "until" && !moscowDateTime(value.until ?? "")) {
      ctx.addIssue({ code: "custom", path: ["until"], message: "Укажите дату и время окончания" });
    }
  });

/** A moderator's action on an item (deleteContent, restoreContent, setPostCommentsClosed, movePost, setPostPinned). */
export const ContentActionFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete"), type: z.enum(["post", "comment", "wall_post", "message"]), id: idField("Не найдено"), reason: reasonField(false) }),
  z.object({ intent: z.literal("restore"), type: z.enum(["post", "comment", "wall_post", "message"]), id: idField("Не найдено"), reason: reasonField(false) }),
  z.object({ intent: z.literal("close"), id: idField("Пост не найден"), reason: reasonField(false) }),
  z.object({ intent: z.literal("open"), id: idField("Пост не найден"), reason: reasonField(false) }),
  z.object({
    intent: z.literal("move"),
    id: idField("Пост не найден"),
    categoryId: z.coerce.number({ error: "Выберите раздел" }).int("Выберите раздел"),
    reason: reasonField(false),
  }),
  z.object({ intent: z.literal("pin"), id: idField("Пост не найден"), reason: reasonField(false) }),
  z.object({ intent: z.literal("unpin"), id: idField("Пост не найден"), reason: reasonField(false) }),
]);

/** /admin/settings: registration, rules (the background keeps BackgroundSchema of app/domain/settings). */
export const RegistrationFormSchema = z.object({ registrationOpen: z.enum(["open", "closed"], { error: "Выберите значение" }), reason: reasonField(false) });
export const SiteRulesFormSchema = z.object({
  rules: z
    .string()
    .max(20_000, "Правила — не длиннее 20 000 символов")
    .refine(...cleanTextRefinement())
    .default(""),
});

const optionalText = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();
const flag = z
  .enum(["1", "0", ""])
  .transform((v) => (v === "" ? undefined : v === "1"))
  .optional()
  .catch(undefined);
/** A Moscow day «YYYY-MM-DD» as the moment it starts (`end`: the next day's start). */
const dayBound = (end: boolean) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const start = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00+03:00`) : null;
      if (!start || Number.isNaN(start.getTime())) {
        ctx.addIssue({ code: "custom", message: "Дата — в виде ГГГГ-ММ-ДД" });
        return z.NEVER;
      }
      return end ? new Date(start.getTime() + 24 * HOUR_MS) : start;
    });

/** /admin/log query (listAuditLog): actor and member by username or id, action, days from–to (Moscow, inclusive). */
export const AuditLogQuerySchema = z.object({
  actor: optionalText,
  targetUser: optionalText,
  action: z.enum(AUDIT_ACTIONS).optional().catch(undefined),
  from: dayBound(false),
  to: dayBound(true),
});

/** /admin/members query (listMembers): q, role, suspended/muted/scammer as "1" or "0". */
export const MemberListQuerySchema = z.object({
  q: optionalText,
  role: z.enum(["member", "moderator", "admin"]).optional().catch(undefined),
  suspended: flag,
  muted: flag,
  scammer: flag,
});

/** /admin/stats query: 7, 30 or 90 days (7 when absent or anything else). */
export const StatsQuerySchema = z.object({
  days: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30), z.literal(90)]))
    .catch(7),
});
