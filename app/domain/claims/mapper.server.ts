/**
 * Claim rows to their public shapes (docs/product/engineering.md#one-mapper-per-entity): the members of a
 * list of claims are loaded in one query, never per row.
 */
import { inArray } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { claims, users } from "~/db/schema";
import { toUserRefDto, type UserRow } from "../users/users.server";
import type { ClaimDto } from "./types";

export type ClaimRow = typeof claims.$inferSelect;

/** `rows` as ClaimDtos, in the same order, with claimant, accused and decider loaded in one query. */
export async function toClaimDtos(db: Db | Tx, rows: ClaimRow[]): Promise<ClaimDto[]> {
  if (rows.length === 0) return [];
  const ids = new Set<number>();
  for (const row of rows) {
    ids.add(row.claimantId);
    ids.add(row.accusedId);
    if (row.decidedBy !== null) ids.add(row.decidedBy);
  }
  const members = new Map<number, UserRow>();
  for (const user of await db
    .select()
    .from(users)
    .where(inArray(users.id, [...ids])))
    members.set(user.id, user);
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    claimant: toUserRefDto(members.get(row.claimantId)!),
    accused: toUserRefDto(members.get(row.accusedId)!),
    dealId: row.dealId,
    amount: row.amount,
    description: row.description,
    evidence: row.evidence,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy !== null ? toUserRefDto(members.get(row.decidedBy)!) : null,
    decisionNote: row.decisionNote,
    compensation: row.compensation,
  }));
}

export async function toClaimDto(db: Db | Tx, row: ClaimRow): Promise<ClaimDto> {
  const [dto] = await toClaimDtos(db, [row]);
  return dto!;
}
