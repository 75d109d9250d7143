/**
 * Who is connected to realtime right now, across server processes
 * (docs/product/conversations.md#online). Each process's hub records the members holding a live
 * connection there in `realtime_presence` (one row per member and process) and refreshes its
 * rows every PRESENCE_TIMING.refreshMs; a member is online while a row of theirs was seen within
 * PRESENCE_TIMING.staleMs, so the members of a process that died drop out by themselves.
 */
import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { realtimePresence, users } from "~/db/schema";

/** Timings of docs/product/conversations.md#online (ms). */
export const PRESENCE_TIMING = {
  /** How often a process refreshes its rows. */
  refreshMs: 30_000,
  /** A row older than this no longer counts (its process stopped refreshing it). */
  staleMs: 90_000,
  /**
   * A member whose last connection in a process closed stays online this long, so a page reload
   * (close, then open) does not flicker their dot.
   */
  offlineGraceMs: 5_000,
} as const;

/** This process's name in `realtime_presence`. */
export const PROCESS_ID = randomUUID();

/** Records `userId` as connected through process `processId` (now); nothing for an id that is no member. */
export async function markPresent(db: Db, processId: string, userId: number): Promise<void> {
  await db.execute(sql`
    insert into realtime_presence (process_id, user_id, seen_at)
    select ${processId}, ${users.id}, now() from ${users} where ${users.id} = ${userId}
    on conflict (process_id, user_id) do update set seen_at = now()`);
}

/** `userId` no longer holds a connection in process `processId`. */
export async function markAbsent(db: Db, processId: string, userId: number): Promise<void> {
  await db.delete(realtimePresence).where(and(eq(realtimePresence.processId, processId), eq(realtimePresence.userId, userId)));
}

/**
 * Refreshes process `processId`'s rows (its members are still connected) and drops rows left
 * long ago by processes that died. Two queries.
 */
export async function refreshPresence(db: Db, processId: string): Promise<void> {
  await db
    .update(realtimePresence)
    .set({ seenAt: sql`now()` })
    .where(eq(realtimePresence.processId, processId));
  await db.delete(realtimePresence).where(lt(realtimePresence.seenAt, sql`now() - make_interval(secs => ${(PRESENCE_TIMING.staleMs * 10) / 1000})`));
}

/** Removes every row of process `processId` (a clean shutdown). */
export async function clearPresence(db: Db, processId: string): Promise<void> {
  await db.delete(realtimePresence).where(eq(realtimePresence.processId, processId));
}

/** The members among `userIds` connected to realtime now in any process. One query (none for an empty list). */
export async function onlineAmong(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: realtimePresence.userId })
    .from(realtimePresence)
    .where(and(inArray(realtimePresence.userId, ids), gt(realtimePresence.seenAt, sql`now() - make_interval(secs => ${PRESENCE_TIMING.staleMs / 1000})`)));
  return new Set(rows.map((row) => row.userId));
}
