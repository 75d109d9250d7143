/**
 * Lists of claims (issue 5; docs/product/claims.md): the public blacklist, a member's
 * claims filed and against them, and the moderators' queue of open claims. Each page loads its
 * members in one query (mapper.server.ts).
 */
import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { claims, users } from "~/db/schema";
import { Forbidden } from "~/lib/errors";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { getUserById, toUserRefDto } from "../users/users.server";
import { normalizeBlacklistQuery } from "./blacklist-query";
import { toClaimDtos } from "./mapper.server";
import type { BlacklistEntryDto, ClaimDto } from "./types";

async function pageOfClaims(db: Db, where: SQL, params: PageParams): Promise<Page<ClaimDto>> {
  const rows = await db
    .select()
    .from(claims)
    .where(where)
    .orderBy(desc(claims.id))
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await db.select({ value: count() }).from(claims).where(where);
  return toPage(await toClaimDtos(db, rows), total?.value ?? 0, params);
}

/** Claims member `userId` filed, newest first, any status. */
export function listClaimsFiledBy(db: Db, userId: number, params: PageParams): Promise<Page<ClaimDto>> {
  return pageOfClaims(db, eq(claims.claimantId, userId), params);
}

/** Claims against member `userId`, newest first, any status (the accused sees and may answer them to a moderator). */
export function listClaimsAgainst(db: Db, userId: number, params: PageParams): Promise<Page<ClaimDto>> {
  return pageOfClaims(db, eq(claims.accusedId, userId), params);
}

/**
 * The moderators' queue: open claims, oldest first. Throws Forbidden (`not_moderator`) for
 * anyone but a moderator or admin.
 */
export async function listOpenClaims(db: Db, moderatorId: number, params: PageParams): Promise<Page<ClaimDto>> {
  const moderator = await getUserById(db, moderatorId);
  if (moderator?.role !== "moderator" && moderator?.role !== "admin") throw new Forbidden("Очередь претензий видят модераторы", "not_moderator");
  const where = eq(claims.status, "open");
  const rows = await db
    .select()
    .from(claims)
    .where(where)
    .orderBy(claims.id)
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await db.select({ value: count() }).from(claims).where(where);
  return toPage(await toClaimDtos(db, rows), total?.value ?? 0, params);
}

/** Escapes LIKE's wildcards: `_` is legal in usernames and must match only itself. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * The public blacklist (/blacklist, GET /api/profiles/blacklist): upheld claims, newest decision
 * first — the accused (with ranks, so avatars carry the scam overlay), the moderator's reason, the
 * claimed amount and compensation in kopecks, the date and the claim id. docs/product/claims.md#blacklist.
 *
 * `query` (docs/product/claims.md#blacklist-search) keeps the entries whose accused's username or
 * display name, or whose reason, contains it, case-insensitively (normalised by
 * normalizeBlacklistQuery; empty lists everything). Two queries: the page and the total.
 */
export async function listBlacklist(db: Db, params: PageParams, query = ""): Promise<Page<BlacklistEntryDto>> {
  const q = normalizeBlacklistQuery(query);
  const pattern = `%${escapeLike(q)}%`;
  const where =
    q === ""
      ? eq(claims.status, "upheld")
      : and(eq(claims.status, "upheld"), or(ilike(users.username, pattern), ilike(users.displayName, pattern), ilike(claims.decisionNote, pattern)));
  const rows = await db
    .select({ claim: claims, accused: users })
    .from(claims)
    .innerJoin(users, eq(users.id, claims.accusedId))
    .where(where)
    .orderBy(desc(claims.decidedAt), desc(claims.id))
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await db.select({ value: count() }).from(claims).innerJoin(users, eq(users.id, claims.accusedId)).where(where);
  const items = rows.map(({ claim, accused }): BlacklistEntryDto => ({
    claimId: claim.id,
    accused: toUserRefDto(accused),
    reason: claim.decisionNote ?? "",
    amount: claim.amount,
    compensation: claim.compensation,
    date: (claim.decidedAt ?? claim.createdAt).toISOString(),
  }));
  return toPage(items, total?.value ?? 0, params);
}
