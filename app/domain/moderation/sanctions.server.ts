/**
 * Suspensions and mutes (docs/product/moderation.md, Discourse's suspend and
 * silence; docs/product/moderation.md#suspension-and-mute).
 *
 * - Suspend: for a period or for good, with a reason. In the same transaction the member's
 *   sessions are deleted, which ends every apiToken of theirs (one per session); after commit every open websocket and
 *   SSE stream of theirs, in every server process, is closed through the realtime hub. Sign-in
 *   refuses them (AccountSuspended, with the reason and the end) until it ends; their deals stay
 *   as they are for moderators to resolve.
 * - Mute (read-only): they sign in, read, use money pages and deals, but every publishing
 *   function refuses them (MemberMuted): posts, comments, wall entries, messages, and edits.
 * - A sanction ends by time with no job (every check compares `ends_at` with now) or when a
 *   moderator lifts it. A new sanction of a kind closes the one in force.
 *
 * Who: moderators sanction members; sanctioning a moderator takes an admin; admins are never
 * sanctioned (revoke the role first). Writers lock the member's row first, and sign-in locks it
 * too (lib/session.server.ts), so a sign-in cannot slip between a suspension and its session purge.
 */
import { aliasedTable, and, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { sanctions, sessions, users, type SanctionKind } from "~/db/schema";
import { SANCTION_KINDS } from "~/db/schema-moderation";
import { eventBus } from "~/lib/events.server";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { toUserRefDto, type UserRow } from "../users/users.server";
import { requireModerator } from "./access.server";
import { writeAudit } from "./audit.server";
import { AccountSuspended, MemberMuted } from "./errors";
import { parseEndsAt, parseReason } from "./input";
import { closeOpenReports, type ReportResolvedEvent } from "./queue.server";
import type { ActiveSanctions, SanctionDto } from "./types";

export type SanctionRow = typeof sanctions.$inferSelect;

export interface SanctionInput {
  kind: SanctionKind;
  /** Why (shown to the member at sign-in or when publishing), 1–1000 characters. */
  reason: string;
  /** When it ends; null for good. */
  endsAt: Date | null;
}

/** The text a sanction closed by a newer one of its kind keeps as its lift reason. */
const REPLACED_REASON = "Заменено новым ограничением";

/** SQL: sanctions in force at `now` (not lifted, no end or an end still ahead). */
function inForce(now: Date) {
  return and(isNull(sanctions.liftedAt), or(isNull(sanctions.endsAt), gt(sanctions.endsAt, now)));
}

/** Whether a sanction row is in force at `now`. */
export function isInForce(row: Pick<SanctionRow, "liftedAt" | "endsAt">, now: Date): boolean {
  return row.liftedAt === null && (row.endsAt === null || row.endsAt > now);
}

/** The member's sanctions in force at `now`, newest of each kind (one query). Takes a transaction too. */
export async function sanctionsInForce(
  db: Db | Tx,
  userId: number,
  now: Date = new Date(),
): Promise<{ suspension: SanctionRow | null; mute: SanctionRow | null }> {
  const rows = await db
    .select()
    .from(sanctions)
    .where(and(eq(sanctions.userId, userId), inForce(now)))
    .orderBy(desc(sanctions.id));
  return { suspension: rows.find((r) => r.kind === "suspend") ?? null, mute: rows.find((r) => r.kind === "mute") ?? null };
}

/**
 * Throws AccountSuspended (403 `account_suspended`, with the reason and the end) when member
 * `userId` is suspended at `now`. Sign-in calls it (the form, the Auth.js-style call, Telegram).
 */
export async function assertMaySignIn(db: Db | Tx, userId: number, now: Date = new Date()): Promise<void> {
  const { suspension } = await sanctionsInForce(db, userId, now);
  if (suspension) throw new AccountSuspended(suspension.reason, suspension.endsAt);
}

/**
 * Throws MemberMuted (403 `member_muted`) when member `userId` is muted at `now`, and
 * AccountSuspended when suspended (a request that outlived its session). Called first by every
 * function that publishes or edits a post, comment, wall entry or message. One query.
 */
export async function assertMayPublish(db: Db | Tx, userId: number, now: Date = new Date()): Promise<void> {
  const { suspension, mute } = await sanctionsInForce(db, userId, now);
  if (suspension) throw new AccountSuspended(suspension.reason, suspension.endsAt);
  if (mute) throw new MemberMuted(mute.reason, mute.endsAt);
}

/** The member's own sanctions in force (for a banner on their pages). No authorisation: their own. */
export async function getOwnSanctions(db: Db, userId: number, now: Date = new Date()): Promise<ActiveSanctions> {
  const { suspension, mute } = await sanctionsInForce(db, userId, now);
  return { suspension: suspension && toSanctionDto(suspension, now), mute: mute && toSanctionDto(mute, now) };
}

/** The one mapper of a sanction row; `users` are the moderators it names, by id (missing ones map to null). */
export function toSanctionDto(row: SanctionRow, now: Date, people: Map<number, UserRow> = new Map()): SanctionDto {
  const ref = (id: number | null) => {
    const user = id === null ? undefined : people.get(id);
    return user ? toUserRefDto(user) : null;
  };
  return {
    id: row.id,
    kind: row.kind,
    reason: row.reason,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt?.toISOString() ?? null,
    createdBy: ref(row.createdById),
    liftedAt: row.liftedAt?.toISOString() ?? null,
    liftedBy: ref(row.liftedById),
    liftReason: row.liftReason,
    active: isInForce(row, now),
  };
}

/**
 * Every sanction of member `userId`, newest first, with the moderators who applied and lifted
 * them (two queries). For the member page of /admin/members.
 */
export async function listSanctionsOf(db: Db, userId: number, now: Date = new Date()): Promise<SanctionDto[]> {
  const creator = aliasedTable(users, "creator");
  const lifter = aliasedTable(users, "lifter");
  const rows = await db
    .select({ sanction: sanctions, creator, lifter })
    .from(sanctions)
    .leftJoin(creator, eq(creator.id, sanctions.createdById))
    .leftJoin(lifter, eq(lifter.id, sanctions.liftedById))
    .where(eq(sanctions.userId, userId))
    .orderBy(desc(sanctions.id));
  return rows.map(({ sanction, creator, lifter }) => {
    const people = new Map<number, UserRow>();
    if (creator) people.set(creator.id, creator);
    if (lifter) people.set(lifter.id, lifter);
    return toSanctionDto(sanction, now, people);
  });
}

/** Checks a sanction's input (kind, reason, end) before anything is read or written. */
export function parseSanctionInput(input: SanctionInput, now: Date): SanctionInput {
  if (!SANCTION_KINDS.includes(input.kind)) {
    throw new ValidationFailed("Неизвестный вид ограничения", { kind: ["Выберите блокировку или режим «только чтение»"] }, "invalid_sanction_kind");
  }
  const reason = parseReason(input.reason, { required: true })!;
  return { kind: input.kind, reason, endsAt: parseEndsAt(input.endsAt, now) };
}

/** What a sanction applied inside a transaction leaves for after the commit. */
export interface AppliedSanction {
  row: SanctionRow;
  member: UserRow;
  replacedIds: number[];
  /** The member's open profile reports the sanction settled (their reporters hear the outcome after the commit). */
  settledReports: { id: number; reporterId: number }[];
}

/**
 * Applies a checked sanction (parseSanctionInput) to `memberId` inside `tx`, as `actor`: locks
 * the member's row, checks who may be sanctioned by whom, closes the sanction of the kind in
 * force, inserts the new one, and for a suspension deletes the member's sessions and replaces
 * their apiToken. The member's open profile reports are settled by it (outcome "suspend" or
 * "mute", the sanction's reason as the note; docs/product/moderation.md#reports), with a
 * `report.resolve` entry. Writes the audit entries. Call `afterSanctionCommitted` once `tx` commits.
 * Throws NotFound (`member_not_found`), Forbidden (`sanction_self`, `cannot_sanction_staff`).
 */
export async function applySanctionInTransaction(
  tx: Db | Tx,
  actor: UserRow,
  memberId: number,
  input: SanctionInput,
  now: Date,
  auditDetails: Record<string, unknown> = {},
): Promise<AppliedSanction> {
  const [member] = isValidId(memberId) ? await tx.select().from(users).where(eq(users.id, memberId)).for("update") : [];
  if (!member) throw new NotFound("Участник не найден", "member_not_found");
  if (member.id === actor.id) throw new Forbidden("Нельзя ограничить самого себя", "sanction_self");
  if (member.role === "admin" || (member.role === "moderator" && actor.role !== "admin")) {
    throw new Forbidden(
      member.role === "admin" ? "Администратора нельзя ограничить: сначала снимите с него роль" : "Ограничить модератора может только администратор",
      "cannot_sanction_staff",
    );
  }
  const replaced = await tx
    .update(sanctions)
    .set({ liftedAt: now, liftedById: actor.id, liftReason: REPLACED_REASON })
    .where(and(eq(sanctions.userId, member.id), eq(sanctions.kind, input.kind), inForce(now)))
    .returning({ id: sanctions.id });
  const [row] = await tx
    .insert(sanctions)
    .values({ userId: member.id, kind: input.kind, reason: input.reason, startsAt: now, endsAt: input.endsAt, createdById: actor.id, createdAt: now })
    .returning();
  if (input.kind === "suspend") {
    await tx.delete(sessions).where(eq(sessions.userId, member.id));
  }
  await writeAudit(tx, {
    actorId: actor.id,
    action: input.kind === "suspend" ? "sanction.suspend" : "sanction.mute",
    targetType: "user",
    targetId: member.id,
    targetUserId: member.id,
    reason: input.reason,
    details: { sanctionId: row!.id, endsAt: input.endsAt?.toISOString() ?? null, replaced: replaced.map((r) => r.id), ...auditDetails },
  });
  const settledReports = await closeOpenReports(tx, { type: "profile", id: member.id }, input.kind, actor.id, input.reason, now);
  if (settledReports.length > 0) {
    await writeAudit(tx, {
      actorId: actor.id,
      action: "report.resolve",
      targetType: "user",
      targetId: member.id,
      targetUserId: member.id,
      reason: input.reason,
      details: {
        outcome: input.kind,
        reportIds: settledReports.map((r) => r.id),
        reporters: new Set(settledReports.map((r) => r.reporterId)).size,
        sanctionId: row!.id,
      },
    });
  }
  return { row: row!, member, replacedIds: replaced.map((r) => r.id), settledReports };
}

/**
 * After the sanction's transaction committed: a suspension closes every realtime connection of
 * the member in every process (the hub's revocation), and `sanction.applied` is published (the
 * member's SANCTION_APPLIED notification), then `report.resolved` for the profile reports it
 * settled (REPORT_HANDLED to their reporters, linking to the profile). Resolves once the
 * revocation is handed to the pub/sub.
 */
export async function afterSanctionCommitted(db: Db, actorId: number, applied: AppliedSanction): Promise<void> {
  if (applied.row.kind === "suspend") await realtimeHub(db).revokeUser(applied.member.id);
  eventBus(db).publish({
    type: "sanction.applied",
    sanctionId: applied.row.id,
    userId: applied.member.id,
    moderatorId: actorId,
    kind: applied.row.kind,
    endsAt: applied.row.endsAt?.toISOString() ?? null,
  });
  if (applied.settledReports.length > 0) {
    const resolved: ReportResolvedEvent = {
      type: "report.resolved",
      moderatorId: actorId,
      outcome: applied.row.kind,
      reports: applied.settledReports,
      link: { subjectUserId: applied.member.id },
    };
    eventBus(db).publish(resolved);
  }
}

/**
 * Moderator `actorId` suspends or mutes member `memberId` (docs/product/moderation.md#suspension-and-mute):
 * `input.kind` "suspend" or "mute", `input.reason` 1–1000 characters, `input.endsAt` a moment
 * after `now` (within 100 years) or null for good. One transaction with its audit entry; a
 * suspension signs the member out everywhere at once (sessions, apiToken, open websockets and
 * SSE streams). A sanction of the same kind in force is replaced, and the member's open profile
 * reports are settled with it (their reporters hear the outcome). Returns the new sanction.
 * Throws Forbidden (`not_moderator`, `sanction_self`, `cannot_sanction_staff`), NotFound
 * (`member_not_found`), ValidationFailed (`invalid_sanction_kind`, `reason_required`,
 * `invalid_reason`, `invalid_text`, `invalid_period`). A refusal changes nothing.
 */
export async function applySanction(db: Db, actorId: number, memberId: number, input: SanctionInput, now: Date = new Date()): Promise<SanctionDto> {
  const checked = parseSanctionInput(input, now);
  const applied = await db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    return applySanctionInTransaction(tx, actor, memberId, checked, now);
  });
  await afterSanctionCommitted(db, actorId, applied);
  return toSanctionDto(applied.row, now);
}

/** suspend: applySanction with kind "suspend". */
export function suspendMember(db: Db, actorId: number, memberId: number, input: { reason: string; endsAt: Date | null }, now: Date = new Date()) {
  return applySanction(db, actorId, memberId, { ...input, kind: "suspend" }, now);
}

/** mute: applySanction with kind "mute". */
export function muteMember(db: Db, actorId: number, memberId: number, input: { reason: string; endsAt: Date | null }, now: Date = new Date()) {
  return applySanction(db, actorId, memberId, { ...input, kind: "mute" }, now);
}

/**
 * Moderator `actorId` lifts sanction `sanctionId` before its end, with an optional reason
 * (≤ 1000 characters). One transaction with its audit entry. Returns the lifted sanction.
 * Throws Forbidden (`not_moderator`; `cannot_sanction_staff` for a moderator's sanction lifted by
 * a moderator), NotFound (`sanction_not_found`), Conflict (`sanction_not_active`: already lifted
 * or ended), ValidationFailed (`invalid_reason`, `invalid_text`).
 */
export async function liftSanction(
  db: Db,
  actorId: number,
  sanctionId: number,
  input: { reason?: string | null } = {},
  now: Date = new Date(),
): Promise<SanctionDto> {
  const reason = parseReason(input.reason, { required: false });
  const row = await db.transaction(async (tx) => {
    const actor = await requireModerator(tx, actorId);
    const [found] = isValidId(sanctionId)
      ? await tx
          .select({ sanction: sanctions, role: users.role })
          .from(sanctions)
          .innerJoin(users, eq(users.id, sanctions.userId))
          .where(eq(sanctions.id, sanctionId))
          .for("update", { of: sanctions })
      : [];
    if (!found) throw new NotFound("Ограничение не найдено", "sanction_not_found");
    if (found.role !== "member" && actor.role !== "admin")
      throw new Forbidden("Снять ограничение с модератора может только администратор", "cannot_sanction_staff");
    if (!isInForce(found.sanction, now)) throw new Conflict("Это ограничение уже снято или закончилось", "sanction_not_active");
    const [lifted] = await tx
      .update(sanctions)
      .set({ liftedAt: now, liftedById: actor.id, liftReason: reason })
      .where(eq(sanctions.id, found.sanction.id))
      .returning();
    await writeAudit(tx, {
      actorId: actor.id,
      action: "sanction.lift",
      targetType: "user",
      targetId: found.sanction.userId,
      targetUserId: found.sanction.userId,
      reason,
      details: { sanctionId: found.sanction.id, kind: found.sanction.kind },
    });
    return lifted!;
  });
  return toSanctionDto(row, now);
}

/** Which of `userIds` are suspended and muted at `now`, with the ends (one query), for member lists. */
export async function sanctionsInForceAmong(
  db: Db,
  userIds: number[],
  now: Date = new Date(),
): Promise<Map<number, { suspension: SanctionRow | null; mute: SanctionRow | null }>> {
  const result = new Map<number, { suspension: SanctionRow | null; mute: SanctionRow | null }>();
  if (userIds.length === 0) return result;
  const rows = await db
    .select()
    .from(sanctions)
    .where(and(inArray(sanctions.userId, userIds), inForce(now)))
    .orderBy(desc(sanctions.id));
  for (const row of rows) {
    const entry = result.get(row.userId) ?? { suspension: null, mute: null };
    if (row.kind === "suspend") entry.suspension ??= row;
    else entry.mute ??= row;
    result.set(row.userId, entry);
  }
  return result;
}

/** SQL for "the member of the `users` row has a sanction of `kind` in force at `now`", for filters over `users`. */
export function hasSanctionSql(kind: SanctionKind, now: Date) {
  return sql`exists (select 1 from ${sanctions} where ${sanctions.userId} = ${users.id} and ${sanctions.kind} = ${kind} and ${inForce(now)})`;
}
