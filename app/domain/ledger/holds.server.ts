/**
 * Held transfers as the wallet page shows them
 * (issue 5 item 2; docs/product/money.md#holds, LOLZTEAM-style): the member's outgoing holds not yet released, which they may release early, and the
 * incoming ones waiting to reach their available balance. Releasing is wallet.server.ts's.
 */
import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { ledgerHolds, ledgerTransfers, users } from "~/db/schema";
import { Conflict, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { memberBalances } from "./ledger.server";
import { memberBadge, memberBadgeColumns, type MemberBadgeDto } from "~/domain/users/member-badge.server";
import type { MemberRef } from "./wallet.server";

/** How many holds of each direction the page lists (the soonest to release first). */
export const HOLDS_LISTED = 50;

export interface HoldDto {
  id: number;
  /** Kopecks. */
  amount: number;
  /** The recipient of an outgoing hold, the sender of an incoming one (with ranks: the scam overlay and the trust card). */
  counterparty: MemberBadgeDto;
  memo: string | null;
  /** ISO times: when it was sent and when it releases by itself. */
  createdAt: string;
  releaseAt: string;
}

export interface MemberHolds {
  /** Sent by the member, not yet released (they may release them early). */
  outgoing: HoldDto[];
  /** Received by the member, not yet released (their held balance). */
  incoming: HoldDto[];
  /** Totals, when there are more than HOLDS_LISTED. */
  outgoingTotal: number;
  incomingTotal: number;
}

/**
 * Member `userId`'s unreleased holds, both directions, each soonest-to-release first (at most
 * HOLDS_LISTED each) with their totals. Amounts in kopecks, times ISO.
 */
export async function listMemberHolds(db: Db, userId: number): Promise<MemberHolds> {
  const [outgoing, incoming, [outgoingTotal], [incomingTotal]] = await Promise.all([
    holdsWhere(db, "outgoing", userId),
    holdsWhere(db, "incoming", userId),
    db
      .select({ value: count() })
      .from(ledgerHolds)
      .where(and(eq(ledgerHolds.senderId, userId), isNull(ledgerHolds.releasedAt))),
    db
      .select({ value: count() })
      .from(ledgerHolds)
      .where(and(eq(ledgerHolds.recipientId, userId), isNull(ledgerHolds.releasedAt))),
  ]);
  return { outgoing, incoming, outgoingTotal: outgoingTotal?.value ?? 0, incomingTotal: incomingTotal?.value ?? 0 };
}

async function holdsWhere(db: Db, direction: "outgoing" | "incoming", userId: number): Promise<HoldDto[]> {
  const mine = direction === "outgoing" ? ledgerHolds.senderId : ledgerHolds.recipientId;
  const theirs = direction === "outgoing" ? ledgerHolds.recipientId : ledgerHolds.senderId;
  const rows = await db
    .select({
      id: ledgerHolds.id,
      amount: ledgerHolds.amount,
      counterparty: memberBadgeColumns(users),
      memo: ledgerTransfers.memo,
      createdAt: ledgerHolds.createdAt,
      releaseAt: ledgerHolds.releaseAt,
    })
    .from(ledgerHolds)
    .innerJoin(users, eq(users.id, theirs))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerHolds.transferId))
    .where(and(eq(mine, userId), isNull(ledgerHolds.releasedAt)))
    .orderBy(asc(ledgerHolds.releaseAt), asc(ledgerHolds.id))
    .limit(HOLDS_LISTED);
  return rows.map((row) => ({
    id: row.id,
    amount: row.amount,
    counterparty: memberBadge(row.counterparty),
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    releaseAt: row.releaseAt.toISOString(),
  }));
}

/** What releasing a hold early would do, shown on its confirmation step (docs/product/interface.md#money-confirmations). Kopecks. */
export interface HoldReleasePreview {
  holdId: number;
  /** Who gets the money in their available balance. */
  recipient: MemberRef;
  amount: number;
  /** Releasing carries no fee (docs/product/money.md#holds). */
  fee: number;
  memo: string | null;
  /** ISO time the hold would release by itself. */
  releaseAt: string;
  /** The sender's available balance: the money left it when the hold was sent, so it stays the same. */
  balanceBefore: number;
  balanceAfter: number;
}

/**
 * The confirmation step of releasing hold `holdId` early (docs/product/money.md#holds): the
 * checks releaseHold makes, and nothing moves. Returns HoldReleasePreview. Throws NotFound
 * (`hold_not_found`) for an unknown hold or one `senderId` did not send (the recipient too),
 * Conflict (`hold_already_released`) when it was released already.
 */
export async function previewHoldRelease(db: Db, senderId: number, holdId: number): Promise<HoldReleasePreview> {
  const notFound = () => new NotFound("Перевод с удержанием не найден", "hold_not_found");
  if (!isValidId(holdId)) throw notFound();
  const [row] = await db
    .select({
      id: ledgerHolds.id,
      senderId: ledgerHolds.senderId,
      amount: ledgerHolds.amount,
      releaseAt: ledgerHolds.releaseAt,
      releasedAt: ledgerHolds.releasedAt,
      recipientId: users.id,
      recipientUsername: users.username,
      memo: ledgerTransfers.memo,
    })
    .from(ledgerHolds)
    .innerJoin(users, eq(users.id, ledgerHolds.recipientId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerHolds.transferId))
    .where(eq(ledgerHolds.id, holdId));
  if (!row || row.senderId !== senderId) throw notFound();
  if (row.releasedAt) throw new Conflict("Удержание уже снято", "hold_already_released");
  const { member_available: balance } = await memberBalances(db, senderId, ["member_available"]);
  return {
    holdId: row.id,
    recipient: { id: row.recipientId, username: row.recipientUsername },
    amount: row.amount,
    fee: 0,
    memo: row.memo,
    releaseAt: row.releaseAt.toISOString(),
    balanceBefore: balance,
    balanceAfter: balance,
  };
}
