/**
 * Roles (docs/product/moderation.md#roles): admins
 * grant and revoke ADMIN, MODERATOR and VERIFIED; moderators and members cannot. ADMIN and
 * MODERATOR are users.role (an admin already does all a moderator does, so granting MODERATOR to
 * an admin is refused rather than silently demoting them); VERIFIED is users.verified.
 *
 * The last admin cannot remove their own role: every role change locks the admins' rows first
 * (one global order, by id), so two admins demoting each other at once cannot leave none.
 */
import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { users } from "~/db/schema";
import { Conflict, NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { ranksOf, type Rank, type UserRow } from "../users/users.server";
import { requireAdmin } from "./access.server";
import { writeAudit } from "./audit.server";
import { parseReason } from "./input";
import { GRANTABLE_RANKS, RANK_LABELS, type GrantableRank, type UserRole } from "./types";

/** A member's roles after a change. */
export interface MemberRolesDto {
  id: number;
  username: string;
  role: UserRole;
  verified: boolean;
  ranks: Rank[];
}

function checkRank(rank: string): GrantableRank {
  if (!(GRANTABLE_RANKS as readonly string[]).includes(rank)) {
    throw new ValidationFailed("Такой роли нет: выдаются ADMIN, MODERATOR и VERIFIED", { rank: ["Такой роли нет"] }, "unknown_role");
  }
  return rank as GrantableRank;
}

async function lockForRoleChange(tx: Db | Tx, memberId: number): Promise<{ member: UserRow; adminIds: number[] }> {
  // The admins first, in id order, then the member: the same order for every role change.
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).for("update");
  const [member] = isValidId(memberId) ? await tx.select().from(users).where(eq(users.id, memberId)).for("update") : [];
  if (!member) throw new NotFound("Участник не найден", "member_not_found");
  return { member, adminIds: admins.map((a) => a.id) };
}

function toRolesDto(user: UserRow): MemberRolesDto {
  return { id: user.id, username: user.username, role: user.role, verified: user.verified, ranks: ranksOf(user) };
}

/**
 * Admin `actorId` grants `rank` (ADMIN, MODERATOR or VERIFIED) to member `memberId`, with an
 * optional reason; one transaction with its audit entry. Returns the member's roles after.
 * Throws Forbidden (`not_admin`: moderators and members cannot change roles), ValidationFailed
 * (`unknown_role`, `invalid_reason`), NotFound (`member_not_found`), Conflict (`role_unchanged`
 * when the member has it already; `already_admin` for MODERATOR to an admin).
 */
export async function grantRank(db: Db, actorId: number, memberId: number, rank: string, input: { reason?: string | null } = {}): Promise<MemberRolesDto> {
  const wanted = checkRank(rank);
  const reason = parseReason(input.reason, { required: false });
  return db.transaction(async (tx) => {
    const actor = await requireAdmin(tx, actorId);
    const { member } = await lockForRoleChange(tx, memberId);
    const unchanged = () => new Conflict(`У участника уже есть роль «${RANK_LABELS[wanted]}»`, "role_unchanged");
    let change: Partial<UserRow>;
    if (wanted === "VERIFIED") {
      if (member.verified) throw unchanged();
      change = { verified: true };
    } else if (wanted === "ADMIN") {
      if (member.role === "admin") throw unchanged();
      change = { role: "admin" };
    } else {
      if (member.role === "moderator") throw unchanged();
      if (member.role === "admin") throw new Conflict("Администратор уже может всё, что модератор: сначала снимите роль администратора", "already_admin");
      change = { role: "moderator" };
    }
    const [updated] = await tx.update(users).set(change).where(eq(users.id, member.id)).returning();
    await writeAudit(tx, {
      actorId: actor.id,
      action: "role.grant",
      targetType: "user",
      targetId: member.id,
      targetUserId: member.id,
      reason,
      details: { rank: wanted, fromRole: member.role, toRole: updated!.role },
    });
    return toRolesDto(updated!);
  });
}

/**
 * Admin `actorId` revokes `rank` from member `memberId` (ADMIN or MODERATOR leave them a plain
 * member), with an optional reason; one transaction with its audit entry. Returns the member's
 * roles after. Throws as grantRank, plus Conflict `role_not_held` when the member lacks the rank
 * and `last_admin` when the only admin would remove their own role.
 */
export async function revokeRank(db: Db, actorId: number, memberId: number, rank: string, input: { reason?: string | null } = {}): Promise<MemberRolesDto> {
  const wanted = checkRank(rank);
  const reason = parseReason(input.reason, { required: false });
  return db.transaction(async (tx) => {
    const actor = await requireAdmin(tx, actorId);
    const { member, adminIds } = await lockForRoleChange(tx, memberId);
    const notHeld = () => new Conflict(`У участника нет роли «${RANK_LABELS[wanted]}»`, "role_not_held");
    let change: Partial<UserRow>;
    if (wanted === "VERIFIED") {
      if (!member.verified) throw notHeld();
      change = { verified: false };
    } else if (wanted === "ADMIN") {
      if (member.role !== "admin") throw notHeld();
      if (member.id === actor.id && adminIds.length <= 1) {
        throw new Conflict("Вы — последний администратор: назначьте другого, прежде чем снять роль с себя", "last_admin");
      }
      change = { role: "member" };
    } else {
      if (member.role !== "moderator") throw notHeld();
      change = { role: "member" };
    }
    const [updated] = await tx.update(users).set(change).where(eq(users.id, member.id)).returning();
    await writeAudit(tx, {
      actorId: actor.id,
      action: "role.revoke",
      targetType: "user",
      targetId: member.id,
      targetUserId: member.id,
      reason,
      details: { rank: wanted, fromRole: member.role, toRole: updated!.role },
    });
    return toRolesDto(updated!);
  });
}
