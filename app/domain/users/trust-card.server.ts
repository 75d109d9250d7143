/**
 * The trust card (docs/product/interface.md#trust-card): what a stranger needs before trading with
 * a member — ranks, the deposit, completed deals, reputation, claims against them, when they
 * joined and were last seen. Public: every figure here is shown to visitors too.
 */
import { and, count, eq, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { claims, commentLikes, deals, postLikes, users, wallPostLikes } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { getBalances } from "../ledger/balances.server";
import { toUserRefDto, type UserRefDto } from "./users.server";

/** The trust card of one member. Money in kopecks, times as ISO strings. */
export interface TrustCardDto extends UserRefDto {
  /** The security deposit, kopecks (docs/product/money.md#deposits). */
  deposit: number;
  /** Deals completed as buyer or seller (docs/product/deals.md). */
  dealsCompleted: number;
  /** Likes received on posts, comments and wall entries (the leaderboard's reputation). */
  reputation: number;
  /** Claims against the member still open, and upheld (docs/product/claims.md). */
  claimsOpen: number;
  claimsUpheld: number;
  createdAt: string;
  lastSeenAt: string | null;
}

/**
 * The trust card of member `id`. Throws NotFound (404 `user_not_found`) for an unknown or
 * malformed id. Five indexed counts and the deposit balance, run together.
 */
export async function getTrustCard(db: Db, id: number): Promise<TrustCardDto> {
  if (!isValidId(id)) throw new NotFound("Пользователь не найден", "user_not_found");
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw new NotFound("Пользователь не найден", "user_not_found");
  const likesOf = (table: typeof postLikes | typeof commentLikes | typeof wallPostLikes) =>
    db
      .select({ n: count() })
      .from(table)
      .where(eq(table.receiverId, id))
      .then(([row]) => row?.n ?? 0);
  const [balances, [dealRow], [claimRow], ...likes] = await Promise.all([
    getBalances(db, id),
    db
      .select({ n: count() })
      .from(deals)
      .where(and(eq(deals.state, "completed"), or(eq(deals.buyerId, id), eq(deals.sellerId, id)))),
    db
      .select({
        open: sql<number>`count(*) filter (where ${claims.status} = 'open')`.mapWith(Number),
        upheld: sql<number>`count(*) filter (where ${claims.status} = 'upheld')`.mapWith(Number),
      })
      .from(claims)
      .where(eq(claims.accusedId, id)),
    likesOf(postLikes),
    likesOf(commentLikes),
    likesOf(wallPostLikes),
  ]);
  return {
    ...toUserRefDto(user),
    deposit: balances.deposit,
    dealsCompleted: dealRow?.n ?? 0,
    reputation: likes.reduce((sum, n) => sum + n, 0),
    claimsOpen: claimRow?.open ?? 0,
    claimsUpheld: claimRow?.upheld ?? 0,
    createdAt: user.createdAt.toISOString(),
    lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
  };
}
