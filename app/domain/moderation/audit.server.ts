/**
 * The audit log (docs/product/moderation.md#audit-log): every moderator and admin action is
 * written by `writeAudit` inside the action's own transaction, so an action and its entry
 * commit or fail together. The table refuses UPDATE and DELETE in the database (trigger of
 * drizzle/0011), so nothing here — or anywhere — can change history.
 */
import { aliasedTable, and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { auditLog, users, type AuditAction, type AuditTargetType } from "~/db/schema";
import { AUDIT_ACTIONS } from "~/db/schema-moderation";
import { NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { toUserRefDto } from "../users/users.server";
import { requireModerator } from "./access.server";
import { AUDIT_ACTION_LABELS, type AuditEntryDto, type AuditLogFilter } from "./types";

export interface NewAuditEntry {
  /** null: the site itself (the hide threshold). */
  actorId: number | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId?: number | null;
  targetUserId?: number | null;
  reason?: string | null;
  /** Ids the target's link needs (postId of a comment, ownerId of a wall entry, conversationId of a message) and what changed. */
  details?: Record<string, unknown>;
}

/** The longest reason an entry keeps (characters; the table's CHECK audit_log_reason_length). */
export const AUDIT_REASON_MAX = 1000;

/** `reason` cut to AUDIT_REASON_MAX characters (code points, as char_length counts) with «…»; the full text stays on the claim or deal it explains. */
function fitReason(reason: string | null | undefined): string | null {
  if (reason === null || reason === undefined) return null;
  const chars = Array.from(reason);
  return chars.length <= AUDIT_REASON_MAX ? reason : `${chars.slice(0, AUDIT_REASON_MAX - 1).join("")}…`;
}

/** Appends one entry; call it with the action's transaction. Returns the entry's id. A reason longer than AUDIT_REASON_MAX is shortened. */
export async function writeAudit(tx: Db | Tx, entry: NewAuditEntry): Promise<number> {
  const [row] = await tx
    .insert(auditLog)
    .values({
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      targetUserId: entry.targetUserId ?? null,
      reason: fitReason(entry.reason),
      details: entry.details ?? {},
    })
    .returning({ id: auditLog.id });
  return row!.id;
}

/**
 * Where an entry's target is shown, from its type, id and details; null when it has no page (a
 * deleted track or FAQ question is gone for good: its entry names it in `details`).
 */
export function auditTargetUrl(type: AuditTargetType, id: number | null, details: Record<string, unknown>, action?: AuditAction): string | null {
  const num = (key: string) => (typeof details[key] === "number" ? (details[key] as number) : null);
  switch (type) {
    case "user":
      return id === null ? null : `/admin/members/${id}`;
    case "post":
      return id === null ? null : `/post/${id}`;
    case "comment": {
      const postId = num("postId");
      return postId === null || id === null ? null : `/post/${postId}#comment-${id}`;
    }
    case "wall_post": {
      const ownerId = num("ownerId");
      return ownerId === null ? null : `/profile/${ownerId}`;
    }
    case "message": {
      const conversationId = num("conversationId");
      if (conversationId === null) return null;
      return details.conversationKind === "personal" ? `/profile/conversations?personal=${conversationId}` : `/profile/conversations?group=${conversationId}`;
    }
    case "setting":
      return "/admin/settings";
    case "claim":
      return id === null ? null : `/claims/${id}`;
    case "deal":
      return id === null ? null : `/services/guarantor/deals/${id}`;
    case "ad":
      return id === null ? null : `/admin/ads#ad-${id}`;
    case "ad_slot":
      return id === null ? null : `/admin/ads/slots/${id}`;
    case "track":
      return id === null || action === "track.delete" ? null : `/admin/music/${id}`;
    case "faq_section":
      return action === "faq.delete" ? null : "/admin/faq";
    case "faq_entry":
      return id === null || action === "faq.delete" ? null : `/admin/faq/entries/${id}`;
    default:
      return null;
  }
}

/** A member named by id or username (case-insensitive, «@» optional); throws NotFound (`member_not_found`). */
async function memberIdOf(db: Db, who: number | string): Promise<number> {
  if (typeof who === "number") {
    if (isValidId(who)) {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, who));
      if (row) return row.id;
    }
  } else {
    const name = who.trim().replace(/^@/u, "");
    if (name) {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${name})`)
        .limit(1);
      if (row) return row.id;
    }
  }
  throw new NotFound("Участник не найден", "member_not_found");
}

/**
 * A page of the audit log for moderator `actorId`, newest first, filtered by acting member,
 * action, member concerned and time (`from` inclusive, `to` exclusive). Three queries: the
 * entries joined with their actors and members, and the count (plus one per named member).
 * Throws Forbidden (`not_moderator`), NotFound (`member_not_found`) for an unknown member in the
 * filter, ValidationFailed (`invalid_action` for an unknown action, `invalid_period` when `from`
 * is not before `to`).
 */
export async function listAuditLog(db: Db, actorId: number, filter: AuditLogFilter, params: PageParams): Promise<Page<AuditEntryDto>> {
  await requireModerator(db, actorId);
  const conditions: SQL[] = [];
  if (filter.action !== undefined) {
    if (!AUDIT_ACTIONS.includes(filter.action)) throw new ValidationFailed("Неизвестное действие", { action: ["Неизвестное действие"] }, "invalid_action");
    conditions.push(eq(auditLog.action, filter.action));
  }
  if (filter.actor !== undefined) conditions.push(eq(auditLog.actorId, await memberIdOf(db, filter.actor)));
  if (filter.targetUser !== undefined) conditions.push(eq(auditLog.targetUserId, await memberIdOf(db, filter.targetUser)));
  for (const [key, value] of [
    ["from", filter.from],
    ["to", filter.to],
  ] as const) {
    if (value !== undefined && (!(value instanceof Date) || Number.isNaN(value.getTime()))) {
      throw new ValidationFailed("Неверная дата", { [key]: ["Неверная дата"] }, "invalid_period");
    }
  }
  if (filter.from && filter.to && filter.from >= filter.to) {
    throw new ValidationFailed("Начало периода должно быть раньше конца", { from: ["Начало периода должно быть раньше конца"] }, "invalid_period");
  }
  if (filter.from) conditions.push(gte(auditLog.createdAt, filter.from));
  if (filter.to) conditions.push(lt(auditLog.createdAt, filter.to));
  const where = conditions.length > 0 ? and(...conditions) : undefined;

  const target = aliasedTable(users, "target_user");
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: auditLog, actor: users, target })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .leftJoin(target, eq(target.id, auditLog.targetUserId))
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(auditLog).where(where),
  ]);
  return toPage(
    rows.map(({ entry, actor, target }) => ({
      id: entry.id,
      actor: actor ? toUserRefDto(actor) : null,
      action: entry.action,
      actionLabel: AUDIT_ACTION_LABELS[entry.action],
      target: { type: entry.targetType, id: entry.targetId, url: auditTargetUrl(entry.targetType, entry.targetId, entry.details, entry.action) },
      targetUser: target ? toUserRefDto(target) : null,
      reason: entry.reason,
      details: entry.details,
      createdAt: entry.createdAt.toISOString(),
    })),
    total?.value ?? 0,
    params,
  );
}
