/**
 * Buffered ad impressions (issue 12; docs/product/engineering.md#speed), as post views are
 * (app/domain/posts/view-buffer.server.ts; app/lib/write-behind.server.ts): showing the home page
 * queues one impression per ad it shows, and the queue is written in one statement per flush
 * (every IMPRESSION_FLUSH_INTERVAL_MS, or at once when IMPRESSION_BUFFER_MAX were queued). One
 * upsert per page view made every visitor of the home page wait on the same `ad_daily_stats` row
 * lock: 50 readers at once queued behind it.
 * The advertiser's own list (listMyAds) flushes first, so they see every impression this process
 * has counted; another process's arrive within a second. Impressions queued by a process killed
 * before its next flush are lost: a second of them at most.
 */
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isValidId } from "~/lib/ids";
import { logger } from "~/lib/logger.server";
import { writeBehindQueue } from "~/lib/write-behind.server";
import { statsDay } from "./ads.server";

/** How often queued impressions are written (ms). */
export const IMPRESSION_FLUSH_INTERVAL_MS = 1_000;
/** Queued impressions that trigger a flush before the interval ends. */
export const IMPRESSION_BUFFER_MAX = 10_000;

/** Impressions of one ad on one day, merged by both. */
interface QueuedImpressions {
  campaignId: number;
  day: string;
  impressions: number;
}

const impressions = writeBehindQueue<QueuedImpressions>({
  intervalMs: IMPRESSION_FLUSH_INTERVAL_MS,
  maxQueued: IMPRESSION_BUFFER_MAX,
  merge: (queued, added) => ({ ...queued, impressions: queued.impressions + added.impressions }),
  write: writeImpressions,
});

/**
 * Queues one impression of each ad in `ids` (campaign ids, repeats counted once) on `now`'s
 * Moscow day (statsDay, docs/product/pages.md#ads); the next flush writes them. Invalid ids are
 * ignored. Never throws.
 */
export function queueImpressions(db: Db, ids: readonly number[], now: Date = new Date()): void {
  const day = statsDay(now);
  for (const campaignId of new Set(ids)) {
    if (isValidId(campaignId)) impressions.add(db, `${campaignId}|${day}`, { campaignId, day, impressions: 1 });
  }
}

/**
 * Writes every queued impression of `db` in one statement (each ad's day row grows by its count).
 * Resolves when written, after any flush already on its way. Impressions of an ad deleted meanwhile
 * are skipped; a failed write is logged and its impressions dropped: counting must never fail a page.
 */
export function flushImpressions(db: Db): Promise<void> {
  return impressions.flush(db);
}

async function writeImpressions(db: Db, batch: QueuedImpressions[]): Promise<void> {
  const ids = `{${batch.map((row) => row.campaignId).join(",")}}`;
  const days = `{${batch.map((row) => row.day).join(",")}}`;
  const counts = `{${batch.map((row) => row.impressions).join(",")}}`;
  try {
    // Ads deleted since they were shown are skipped; the others' day rows grow by their counts.
    await db.execute(sql`
      insert into ad_daily_stats (campaign_id, day, impressions)
      select q.campaign_id, q.day, q.n
      from unnest(${ids}::int[], ${days}::date[], ${counts}::int[]) as q(campaign_id, day, n)
      where exists (select 1 from ad_campaigns c where c.id = q.campaign_id)
      on conflict (campaign_id, day) do update set impressions = ad_daily_stats.impressions + excluded.impressions`);
  } catch (error) {
    logger.warn({ err: error, impressions: batch.length }, "queued ad impressions could not be written");
  }
}
