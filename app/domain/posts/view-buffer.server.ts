/**
 * Buffered view counting (issue 12; docs/product/engineering.md#speed): reading a post queues
 * its view in memory, and the queue is written in one statement per flush (every
 * VIEW_FLUSH_INTERVAL_MS, or at once when VIEW_BUFFER_MAX views wait) instead of one write per
 * page. The rule is recordView's (engagement.server.ts): a view counts once per visitor per post
 * per Moscow day; post_views' primary key keeps it so across flushes and processes.
 * Views queued by a process killed before its next flush are lost: a second of views at most.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isValidId } from "~/lib/ids";
import { logger } from "~/lib/logger.server";

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

interface Queue {
  views: Map<string, { postId: number; visitorKey: string; day: string }>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void>;
}

const queues = new WeakMap<Db, Queue>();

function queueOf(db: Db): Queue {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { views: new Map(), timer: null, flushing: Promise.resolve() }));
  return queue;
}

/**
 * Queues a view of post `postId` by `visitorKey` (visitorKeyOf) on `now`'s Moscow day; it is
 * written by the next flush. Invalid ids are ignored. Never throws.
 */
export function queueView(db: Db, postId: number, visitorKey: string, now: Date = new Date()): void {
  if (!isValidId(postId)) return;
  const queue = queueOf(db);
  const day = moscowDay.format(now);
  queue.views.set(`${postId}|${visitorKey}|${day}`, { postId, visitorKey, day });
  if (queue.views.size >= VIEW_BUFFER_MAX) void flushViews(db);
  else queue.timer ??= setTimeout(() => void flushViews(db), VIEW_FLUSH_INTERVAL_MS).unref();
}

/**
 * Writes every queued view of `db`: new (post, visitor, day) rows go into post_views and each
 * post's views column grows by its new rows, in one statement; posts deleted meanwhile are
 * skipped. Resolves when written; a failed write is logged and its views dropped (counting is
 * best effort and must never fail a page).
 */
export function flushViews(db: Db): Promise<void> {
  const queue = queueOf(db);
  if (queue.timer) clearTimeout(queue.timer);
  queue.timer = null;
  const batch = [...queue.views.values()];
  queue.views.clear();
  if (batch.length === 0) return queue.flushing;
  queue.flushing = queue.flushing.then(() => writeViews(db, batch));
  return queue.flushing;
}

async function writeViews(db: Db, batch: { postId: number; visitorKey: string; day: string }[]): Promise<void> {
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
