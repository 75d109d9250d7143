/**
 * Ads as shown (issue 11; docs/product/pages.md#ads): the advertiser's own requests with their
 * daily figures, the admins' review list, the running ads of the home page, and counting their
 * impressions and clicks. Requests and their review (the money): ads.server.ts.
 */
import { and, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { adCampaigns, adDailyStats, adSlots, users } from "~/db/schema";
import { isValidId } from "~/lib/ids";
import type { FileStorage } from "~/lib/storage/storage.server";
import { assertAdmin } from "../users/roles-admin";
import { adClickPath, type AdCampaignDto, type AdDayStats, type RunningAdDto } from "./types";

import { flushImpressions } from "./impression-buffer.server";
import { adNotFound, DAY_MS, statsDay, type Actor } from "./ads.server";

/** Requests listed per page of /admin/ads and /ads. */
const LISTED = 50;
/** Days of per-day stats the advertiser sees per ad. */
const STATS_DAYS = 30;

/**
 * Member `userId`'s ad requests, newest first (up to 50), with their totals and the last 30 days
 * of impressions and clicks per day. Only the advertiser sees these (the /ads page's own list).
 * Impressions queued in this process are written first.
 */
export async function listMyAds(db: Db, storage: FileStorage, userId: number, now: Date = new Date()): Promise<AdCampaignDto[]> {
  // The advertiser sees every impression this process has counted (impression-buffer.server.ts).
  await flushImpressions(db);
  const rows = await campaignRows(db, eq(adCampaigns.advertiserId, userId));
  const ids = rows.map((row) => row.ad.id);
  const since = statsDay(new Date(now.getTime() - (STATS_DAYS - 1) * DAY_MS));
  const daily =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(adDailyStats)
          .where(and(inArray(adDailyStats.campaignId, ids), sql`${adDailyStats.day} >= ${since}`))
          .orderBy(desc(adDailyStats.day));
  const byAd = new Map<number, AdDayStats[]>();
  for (const row of daily) byAd.set(row.campaignId, [...(byAd.get(row.campaignId) ?? []), { day: row.day, impressions: row.impressions, clicks: row.clicks }]);
  return rows.map((row) => toCampaignDto(row, storage, now, byAd.get(row.ad.id) ?? []));
}

/**
 * The requests /admin/ads shows to admin `actor`: pending ones first (oldest first, so none waits
 * forever), then the 50 most recently reviewed. Throws Forbidden (`not_admin`).
 */
export async function listAdsForReview(
  db: Db,
  storage: FileStorage,
  actor: Actor,
  now: Date = new Date(),
): Promise<{ pending: AdCampaignDto[]; reviewed: AdCampaignDto[] }> {
  assertAdmin(actor);
  const [pending, reviewed] = await Promise.all([
    campaignRows(db, eq(adCampaigns.state, "pending"), "oldest"),
    campaignRows(db, sql`${adCampaigns.state} <> 'pending'`),
  ]);
  return {
    pending: pending.map((row) => toCampaignDto(row, storage, now, [])),
    reviewed: reviewed.map((row) => toCampaignDto(row, storage, now, [])),
  };
}

async function campaignRows(db: Db, where: ReturnType<typeof eq>, order: "newest" | "oldest" = "newest") {
  const totals = db
    .select({
      campaignId: adDailyStats.campaignId,
      impressions: sql<number>`sum(${adDailyStats.impressions})::int`.as("impressions"),
      clicks: sql<number>`sum(${adDailyStats.clicks})::int`.as("clicks"),
    })
    .from(adDailyStats)
    .groupBy(adDailyStats.campaignId)
    .as("totals");
  return db
    .select({
      ad: adCampaigns,
      slotName: adSlots.name,
      placement: adSlots.placement,
      username: users.username,
      impressions: totals.impressions,
      clicks: totals.clicks,
    })
    .from(adCampaigns)
    .innerJoin(adSlots, eq(adSlots.id, adCampaigns.slotId))
    .innerJoin(users, eq(users.id, adCampaigns.advertiserId))
    .leftJoin(totals, eq(totals.campaignId, adCampaigns.id))
    .where(where)
    .orderBy(order === "newest" ? desc(adCampaigns.id) : adCampaigns.id)
    .limit(LISTED);
}

type CampaignListRow = Awaited<ReturnType<typeof campaignRows>>[number];

function toCampaignDto(row: CampaignListRow, storage: FileStorage, now: Date, daily: AdDayStats[]): AdCampaignDto {
  const { ad } = row;
  const running = ad.state === "approved" && ad.startsAt! <= now && ad.endsAt! > now;
  return {
    id: ad.id,
    advertiser: { id: ad.advertiserId, username: row.username },
    slot: { id: ad.slotId, name: row.slotName, placement: row.placement },
    title: ad.title,
    body: ad.body,
    link: ad.link,
    imageUrl: ad.imageKey ? storage.publicUrl(ad.imageKey) : null,
    days: ad.days,
    amount: ad.amount,
    state: ad.state,
    running,
    expired: ad.state === "approved" && ad.endsAt! <= now,
    rejectionReason: ad.rejectionReason,
    createdAt: ad.createdAt.toISOString(),
    startsAt: ad.startsAt?.toISOString() ?? null,
    endsAt: ad.endsAt?.toISOString() ?? null,
    impressions: Number(row.impressions ?? 0),
    clicks: Number(row.clicks ?? 0),
    daily,
  };
}

/**
 * The ads running at `now` (approved, inside their period), every placement, oldest first.
 * Expired and future ads are not among them. Public.
 */
export async function listRunningAds(db: Db, storage: FileStorage, now: Date = new Date()): Promise<RunningAdDto[]> {
  const rows = await db
    .select({
      id: adCampaigns.id,
      slotId: adCampaigns.slotId,
      placement: adSlots.placement,
      feedPosition: adSlots.feedPosition,
      title: adCampaigns.title,
      body: adCampaigns.body,
      imageKey: adCampaigns.imageKey,
      link: adCampaigns.link,
    })
    .from(adCampaigns)
    .innerJoin(adSlots, eq(adSlots.id, adCampaigns.slotId))
    .where(and(eq(adCampaigns.state, "approved"), lte(adCampaigns.startsAt, now), gt(adCampaigns.endsAt, now)))
    .orderBy(adCampaigns.startsAt, adCampaigns.id);
  return rows.map((row) => ({
    id: row.id,
    slotId: row.slotId,
    placement: row.placement,
    feedPosition: row.feedPosition,
    title: row.title,
    body: row.body,
    imageUrl: row.imageKey ? storage.publicUrl(row.imageKey) : null,
    href: adClickPath(row.id),
    host: new URL(row.link).host,
  }));
}

/**
 * A click on ad `id` (the redirect /ads/{id}/click): returns the link to send the visitor to, and
 * counts the click when the ad is running at `now`. An ad that ran and ended still leads to its
 * link, uncounted. Throws NotFound (`ad_not_found`) for an unknown, pending or rejected ad, so
 * the redirect never leads to a link no admin approved.
 */
export async function clickAd(db: Db, id: number, now: Date = new Date()): Promise<string> {
  if (!isValidId(id)) throw adNotFound();
  const [ad] = await db
    .select({ link: adCampaigns.link, state: adCampaigns.state, startsAt: adCampaigns.startsAt, endsAt: adCampaigns.endsAt })
    .from(adCampaigns)
    .where(eq(adCampaigns.id, id));
  if (!ad || ad.state !== "approved" || ad.startsAt! > now) throw adNotFound();
  if (ad.endsAt! > now) {
    await db
      .insert(adDailyStats)
      .values({ campaignId: id, day: statsDay(now), clicks: 1 })
      .onConflictDoUpdate({ target: [adDailyStats.campaignId, adDailyStats.day], set: { clicks: sql`${adDailyStats.clicks} + 1` } });
  }
  return ad.link;
}
