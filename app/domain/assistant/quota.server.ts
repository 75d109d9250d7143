/**
 * The assistant's daily quota (docs/product/pages.md: "a daily quota per member (50 requests by
 * default)"): requests per member per Moscow calendar day in assistant_usage. A request is
 * reserved before anything goes upstream, in one statement that cannot pass the quota even when
 * several arrive at once, and given back when the upstream failed (turn.server.ts runTurn).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { assistantUsage } from "~/db/schema";
import { RateLimited } from "~/lib/errors";
import type { AssistantUsageDto } from "./types";

const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The Moscow calendar day of `now` as YYYY-MM-DD (Moscow keeps UTC+3 all year). */
export function moscowDay(now: Date): string {
  return new Date(now.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** Milliseconds from `now` to the next Moscow midnight. */
export function msUntilMoscowMidnight(now: Date): number {
  const shifted = now.getTime() + MOSCOW_OFFSET_MS;
  return 24 * 60 * 60 * 1000 - (shifted % (24 * 60 * 60 * 1000));
}

/** Member `userId`'s use of `quota` on the day of `now`. */
export async function getUsage(db: Db | Tx, userId: number, quota: number, now = new Date()): Promise<AssistantUsageDto> {
  const [row] = await db
    .select({ requests: assistantUsage.requests })
    .from(assistantUsage)
    .where(and(eq(assistantUsage.userId, userId), eq(assistantUsage.day, moscowDay(now))));
  const used = row?.requests ?? 0;
  return { used, quota, remaining: Math.max(0, quota - used) };
}

/**
 * Takes one request of member `userId`'s quota for the day of `now`, inside transaction `tx`.
 * Returns the usage after it. Throws RateLimited (429, `assistant_quota_exceeded`) when the day's
 * `quota` is used up; the caller's transaction then rolls back whole.
 */
export async function reserveRequest(tx: Tx, userId: number, quota: number, now = new Date()): Promise<AssistantUsageDto> {
  const day = moscowDay(now);
  const [row] = await tx
    .insert(assistantUsage)
    .values({ userId, day, requests: 1 })
    .onConflictDoUpdate({
      target: [assistantUsage.userId, assistantUsage.day],
      set: { requests: sql`${assistantUsage.requests} + 1` },
      setWhere: sql`${assistantUsage.requests} < ${quota}`,
    })
    .returning({ requests: assistantUsage.requests });
  if (!row || row.requests > quota) {
    throw new RateLimited(
      msUntilMoscowMidnight(now),
      `Дневной лимит исчерпан: ${quota} запросов в сутки. Лимит обновится в полночь по московскому времени.`,
      "assistant_quota_exceeded",
    );
  }
  return { used: row.requests, quota, remaining: quota - row.requests };
}

/** Gives back one request of member `userId` for `day` (YYYY-MM-DD); never below zero. */
export async function refundRequest(db: Db, userId: number, day: string): Promise<void> {
  await db
    .update(assistantUsage)
    .set({ requests: sql`greatest(${assistantUsage.requests} - 1, 0)` })
    .where(and(eq(assistantUsage.userId, userId), eq(assistantUsage.day, day)));
}
