import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
/**
 * Waiting for something asynchronous without sleeping a fixed time (docs/product/engineering.md#tests:
 * "no sleeping instead of waiting"): polls `check` until it returns a value other than
 * undefined/false, or fails after `timeoutMs` with `what` in the message.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Waits until some transaction of this database waits for a lock (PostgreSQL's pg_stat_activity),
 * so a race test knows the other side is blocked before it goes on. PostgreSQL only: PGlite runs one
 * query at a time, so nothing there ever waits on a lock.
 */
export async function untilATransactionWaitsForALock(db: Db, what: string): Promise<void> {
  await waitFor(async () => {
    const [row] = await db
      .select({ waiting: sql<number>`count(*)`.mapWith(Number) })
      .from(sql`pg_stat_activity`)
      .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
    return (row?.waiting ?? 0) > 0;
  }, what);
}
