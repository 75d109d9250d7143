/**
 * Buffered view counting (issue 12; docs/product/engineering.md#speed): reading a post queues
 * its view in memory (app/lib/write-behind.server.ts), and the queue is written in one statement
 * per flush (every VIEW_FLUSH_INTERVAL_MS, or at once when VIEW_BUFFER_MAX views were queued)
 * instead of one write per page. The rule is recordView's (engagement.server.ts): a view counts
 * once per visitor per post per Moscow day; post_views' primary key keeps it so across flushes
 * and processes.
 * Views queued by a process killed before its next flush are lost: a second of views at most.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isValidId } from "~/lib/ids";
import { logger } from "~/lib/logger.server";
import { writeBehindQueue } from "~/lib/write-behind.server";

/** How often queued views are written (ms). */
export const VIEW_FLUSH_INTERVAL_MS = 1_000;
/** Queued views that trigger a flush before the interval ends. */
export const VIEW_BUFFER_MAX = 1_000;

const moscowDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Moscow", year: "numeric", month: "2-digit", day: "2-digit" });

/** The post_views key of a reader: `u:{userId}` for a member, else a hash of address and browser. */
export function visitorKeyOf(userId: number | null, clientIp: string, userAgent: string | null): string {
  if (userId !== null) return `u:${userId}`;
  return `v:${createHash("sha256")
    .update(`${clientIp}|${userAgent ?? ""}`)
    .digest("base64url")
    .slice(0, 22)}`;
}

/** One queued view: merged by post, visitor and day, so a repeat waits as one row. */
interface QueuedView {
  postId: number;
  visitorKey: string;
  day: string;
}

const views = writeBehindQueue<QueuedView>({ intervalMs: VIEW_FLUSH_INTERVAL_MS, maxQueued: VIEW_BUFFER_MAX, write: writeViews });

/**
 * Queues a view of post `postId` by `visitorKey` (visitorKeyOf) on `now`'s Moscow day; it is
 * written by the next flush. Invalid ids are ignored. Never throws.
 */
export function queueView(db: Db, postId: number, visitorKey: string, now: Date = new Date()): void {
  if (!isValidId(postId)) return;
  const day = moscowDay.format(now);
  views.add(db, `${postId}|${visitorKey}|${day}`, { postId, visitorKey, day });
}

/**
 * Writes every queued view of `db`: new (post, visitor, day) rows go into post_views and each
 * post's views column grows by its new rows, in one statement; posts deleted meanwhile are
 * skipped. Resolves when written; a failed write is logged and its views dropped (counting is
 * best effort and must never fail a page).
 */
export function flushViews(db: Db): Promise<void> {
  return views.flush(db);
}

async function writeViews(db: Db, batch: QueuedView[]): Promise<void> {
  const postIds = `{${batch.map((view) => view.postId).join(",")}}`;
  const keys = `{${batch.map((view) => JSON.stringify(view.visitorKey)).join(",")}}`;
  const days = `{${batch.map((view) => view.day).join(",")}}`;
  try {
    await db.execute(sql`
      with queued as (
        select * from unnest(${postIds}::int[], ${keys}::text[], ${days}::date[]) as q(post_id, visitor_key, day)
      ), inserted as (
        insert into post_views (post_id, visitor_key, day)
        select q.post_id, q.visitor_key, q.day from queued q where exists (select 1 from posts p where p.id = q.post_id)
        on conflict do nothing
        returning post_id
      )
      update posts set views = posts.views + counted.n
      from (select post_id, count(*)::int as n from inserted group by post_id) counted
      where posts.id = counted.post_id`);
  } catch (error) {
    logger.warn({ err: error, views: batch.length }, "queued post views could not be written");
  }
}
