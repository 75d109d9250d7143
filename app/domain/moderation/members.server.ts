/**
 * Members as moderators see them (docs/product/moderation.md; the /admin
 * dashboard and /admin/members): the dashboard's counts, a searchable and filterable list, and
 * a member's page — roles, current and past sanctions, recent sign-in addresses, claims, deals
 * and balances. Moderators and admins only.
 */
import { and, count, desc, eq, gte, max, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { claims, deals, reports, signInEvents, users } from "~/db/schema";
import { NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { assertCleanText } from "~/lib/text";
import { listClaimsAgainst, listClaimsFiledBy } from "../claims/lists.server";
import type { ClaimDto } from "../claims/types";
import { listDealsOf } from "../deals/queries.server";
import type { DealDto } from "../deals/types";
import { getBalances, type Balances } from "../ledger/balances.server";
import { ranksOf, type Rank } from "../users/users.server";
import { requireModerator } from "./access.server";
import { listAuditLog } from "./audit.server";
import { countOpenReports } from "./report-queue.server";
import { hasSanctionSql, listSanctionsOf, sanctionsInForceAmong } from "./sanctions.server";
import { moscowDay, startOfMoscowDay } from "./stats.server";
import type { ActiveSanctions, AuditEntryDto, DashboardCounts, MemberListFilter, MemberListItemDto, SanctionDto, UserRole } from "./types";

const ROLES: readonly UserRole[] = ["member", "moderator", "admin"];
/** The longest search text of /admin/members (characters). */
const QUERY_MAX = 100;

/**
 * The /admin dashboard for moderator `actorId`: items with open reports (and reports in all),
 * open claims, deals in dispute, members registered since the start of today (Moscow).
 * Four small queries. Throws Forbidden (`not_moderator`).
 */
export async function getDashboardCounts(db: Db, actorId: number, now: Date = new Date()): Promise<DashboardCounts> {
  await requireModerator(db, actorId);
  const [open, [claimCount], [disputeCount], [newcomers]] = await Promise.all([
    countOpenReports(db),
    db.select({ value: count() }).from(claims).where(eq(claims.status, "open")),
    db.select({ value: count() }).from(deals).where(eq(deals.state, "disputed")),
    db
      .select({ value: count() })
      .from(users)
      .where(gte(users.createdAt, startOfMoscowDay(moscowDay(now)))),
  ]);
  return {
    openReportItems: open.items,
    openReports: open.reports,
    openClaims: claimCount?.value ?? 0,
    openDisputes: disputeCount?.value ?? 0,
    newMembersToday: newcomers?.value ?? 0,
  };
}

/** `value` as a LIKE pattern matching it anywhere, its wildcards taken literally. */
function containsPattern(value: string): string {
  return `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of members for moderator `actorId`, newest first: `q` finds part of a username or email
 * (case-insensitive), `role`, `suspended`, `muted` (in force at `now`) and `scammer` filter.
 * Three queries: the page, the count, and the sanctions in force of the page's members.
 * Throws Forbidden (`not_moderator`), ValidationFailed (`unknown_role`, `invalid_query`, `invalid_text`).
 */
export async function listMembers(
  db: Db,
  actorId: number,
  filter: MemberListFilter,
  params: PageParams,
  now: Date = new Date(),
): Promise<Page<MemberListItemDto>> {
  await requireModerator(db, actorId);
  const conditions: SQL[] = [];
  if (filter.q !== undefined) {
    assertCleanText("q", filter.q);
    const q = filter.q.trim();
    if (q.length > QUERY_MAX) throw new ValidationFailed(`Запрос — не длиннее ${QUERY_MAX} символов`, { q: ["Слишком длинный запрос"] }, "invalid_query");
    if (q) {
      const pattern = containsPattern(q.replace(/^@/u, ""));
      conditions.push(or(sql`lower(${users.username}) like ${pattern}`, sql`lower(${users.email}) like ${pattern}`)!);
    }
  }
  if (filter.role !== undefined) {
    if (!ROLES.includes(filter.role)) throw new ValidationFailed("Такой роли нет", { role: ["Такой роли нет"] }, "unknown_role");
    conditions.push(eq(users.role, filter.role));
  }
  if (filter.suspended !== undefined) conditions.push(filter.suspended ? hasSanctionSql("suspend", now) : sql`not ${hasSanctionSql("suspend", now)}`);
  if (filter.muted !== undefined) conditions.push(filter.muted ? hasSanctionSql("mute", now) : sql`not ${hasSanctionSql("mute", now)}`);
  if (filter.scammer !== undefined) conditions.push(eq(users.scammer, filter.scammer));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(users).where(where),
  ]);
  const inForce = await sanctionsInForceAmong(
    db,
    rows.map((r) => r.id),
    now,
  );
  return toPage(
    rows.map((user) => {
      const active = inForce.get(user.id);
      return {
        id: user.id,
        username: user.username,
        email: user.email,
        image: user.image,
        role: user.role,
        ranks: ranksOf(user),
        createdAt: user.createdAt.toISOString(),
        lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
        suspendedUntil: active?.suspension?.endsAt?.toISOString() ?? null,
        suspendedForever: active?.suspension != null && active.suspension.endsAt === null,
        mutedUntil: active?.mute?.endsAt?.toISOString() ?? null,
        mutedForever: active?.mute != null && active.mute.endsAt === null,
      };
    }),
    total?.value ?? 0,
    params,
  );
}

/** A sign-in address of a member: where from, how often, when last. */
export interface SignInAddressDto {
  ip: string | null;
  signIns: number;
  lastAt: string;
}

/** Everything the member page of /admin/members shows. Times are ISO strings, money in kopecks. */
export interface MemberAdminViewDto {
  member: {
    id: number;
    username: string;
    displayName: string | null;
    email: string;
    emailVerified: boolean;
    image: string | null;
    bio: string;
    role: UserRole;
    verified: boolean;
    scammer: boolean;
    ranks: Rank[];
    telegramUsername: string | null;
    createdAt: string;
    lastSeenAt: string | null;
  };
  /** Sanctions in force now. */
  active: ActiveSanctions;
  /** Every sanction, newest first. */
  sanctions: SanctionDto[];
  /** The addresses of the last 30 days' sign-ins, the most recent first (at most 20). */
  signInAddresses: SignInAddressDto[];
  claimsAgainst: Page<ClaimDto>;
  claimsFiled: Page<ClaimDto>;
  deals: Page<DealDto>;
  balances: Balances;
  /** Reports naming the member: open ones and all. */
  reportsAgainst: { open: number; total: number };
  /** The latest audit entries about the member. */
  recentActions: AuditEntryDto[];
}

/**
 * The member page of member `memberId` for moderator `actorId` (docs/product/moderation.md#admin-pages: roles, sanctions,
 * sign-in IPs, claims, deals, balances; plus reports and the latest audit entries). About ten
 * queries, none per row. Throws Forbidden (`not_moderator`), NotFound (`member_not_found`).
 */
export async function getMemberAdminView(db: Db, actorId: number, memberId: number, now: Date = new Date()): Promise<MemberAdminViewDto> {
  await requireModerator(db, actorId);
  const [user] = isValidId(memberId) ? await db.select().from(users).where(eq(users.id, memberId)) : [];
  if (!user) throw new NotFound("Участник не найден", "member_not_found");
  const firstPage = { page: 1, perPage: 10 };
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const lastAt = max(signInEvents.createdAt);
  const [sanctionList, addresses, claimsAgainst, claimsFiled, dealPage, balances, [reportCounts], audit] = await Promise.all([
    listSanctionsOf(db, user.id, now),
    db
      .select({ ip: signInEvents.ip, signIns: count(), lastAt })
      .from(signInEvents)
      .where(and(eq(signInEvents.userId, user.id), gte(signInEvents.createdAt, since)))
      .groupBy(signInEvents.ip)
      .orderBy(desc(lastAt))
      .limit(20),
    listClaimsAgainst(db, user.id, firstPage),
    listClaimsFiledBy(db, user.id, firstPage),
    listDealsOf(db, user.id, firstPage),
    getBalances(db, user.id),
    db
      .select({ open: sql<number>`count(*) filter (where ${reports.status} = 'open')`.mapWith(Number), total: count() })
      .from(reports)
      .where(eq(reports.targetUserId, user.id)),
    listAuditLog(db, actorId, { targetUser: user.id }, firstPage),
  ]);
  const activeSuspension = sanctionList.find((s) => s.active && s.kind === "suspend") ?? null;
  const activeMute = sanctionList.find((s) => s.active && s.kind === "mute") ?? null;
  return {
    member: {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      bio: user.bio,
      role: user.role,
      verified: user.verified,
      scammer: user.scammer,
      ranks: ranksOf(user),
      telegramUsername: user.telegramUsername,
      createdAt: user.createdAt.toISOString(),
      lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
    },
    active: { suspension: activeSuspension, mute: activeMute },
    sanctions: sanctionList,
    signInAddresses: addresses.map((a) => ({ ip: a.ip, signIns: a.signIns, lastAt: (a.lastAt ?? now).toISOString() })),
    claimsAgainst,
    claimsFiled,
    deals: dealPage,
    balances,
    reportsAgainst: { open: reportCounts?.open ?? 0, total: reportCounts?.total ?? 0 },
    recentActions: audit.items,
  };
}
