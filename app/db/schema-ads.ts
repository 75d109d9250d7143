/**
 * Advertising (issue 11; docs/product/pages.md#ads): slots sold by the day, members' ad requests
 * paid through the ledger (docs/product/money.md#recipe-ad-request-approval-and-rejection), and
 * per-day impression and click counters. Re-exported by schema.ts, so there is still one schema.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./schema-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const kopecks = (name: string) => bigint(name, { mode: "number" });

/** Where a slot's ads show: in the home feed after N posts, in the sidebar, or under the header. */
export const AD_PLACEMENTS = ["feed", "sidebar", "header"] as const;
export type AdPlacement = (typeof AD_PLACEMENTS)[number];

/** An ad request's state: waiting for an admin (money held), approved (paid, runs its days) or rejected (money returned). */
export const AD_STATES = ["pending", "approved", "rejected"] as const;
export type AdState = (typeof AD_STATES)[number];

/** A slot an admin sells: its placement, price per day (kopecks) and how many ads may run in it at once. */
export const adSlots = pgTable(
  "ad_slots",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    placement: text("placement", { enum: AD_PLACEMENTS }).notNull(),
    /** For the feed: the ad shows after this many posts; null for the other placements. */
    feedPosition: integer("feed_position"),
    pricePerDay: kopecks("price_per_day").notNull(),
    capacity: integer("capacity").notNull().default(1),
    /** An inactive slot takes no new requests; running ads keep running. */
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    check("ad_slots_placement_known", sql`${t.placement} in ('feed', 'sidebar', 'header')`),
    check("ad_slots_feed_position", sql`(${t.placement} = 'feed') = (${t.feedPosition} is not null) and coalesce(${t.feedPosition}, 0) >= 0`),
    check("ad_slots_price_positive", sql`${t.pricePerDay} > 0`),
    check("ad_slots_capacity_positive", sql`${t.capacity} > 0`),
  ],
);

/**
 * A member's ad request. While `pending` its price sits in the escrow account `ad:{id}`; approval
 * moves it to the platform and fixes `starts_at`/`ends_at`, rejection returns it with a reason.
 * `amount` is `days × price_per_day` (the slot's price when requested).
 */
export const adCampaigns = pgTable(
  "ad_campaigns",
  {
    id: serial("id").primaryKey(),
    advertiserId: integer("advertiser_id")
      .notNull()
      .references(() => users.id),
    slotId: integer("slot_id")
      .notNull()
      .references(() => adSlots.id),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** An http or https URL the ad links to (through the click counter). */
    link: text("link").notNull(),
    /** Storage key of the picture (WebP, app/lib/storage/), or null. */
    imageKey: text("image_key"),
    days: integer("days").notNull(),
    pricePerDay: kopecks("price_per_day").notNull(),
    amount: kopecks("amount").notNull(),
    state: text("state", { enum: AD_STATES }).notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    reviewedBy: integer("reviewed_by").references(() => users.id),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("ad_campaigns_advertiser_idx").on(t.advertiserId, t.id),
    index("ad_campaigns_running_idx")
      .on(t.slotId, t.endsAt)
      .where(sql`${t.state} = 'approved'`),
    index("ad_campaigns_pending_idx")
      .on(t.id)
      .where(sql`${t.state} = 'pending'`),
    check("ad_campaigns_state_known", sql`${t.state} in ('pending', 'approved', 'rejected')`),
    check("ad_campaigns_days_range", sql`${t.days} between 1 and 30`),
    check("ad_campaigns_amount", sql`${t.pricePerDay} > 0 and ${t.amount} = ${t.days} * ${t.pricePerDay}`),
    check("ad_campaigns_link_http", sql`${t.link} ~* '^https?://'`),
    check("ad_campaigns_reviewed", sql`(${t.state} = 'pending') = (${t.reviewedAt} is null)`),
    check("ad_campaigns_rejected_reason", sql`(${t.state} = 'rejected') = (${t.rejectionReason} is not null)`),
    check("ad_campaigns_approved_period", sql`(${t.state} = 'approved') = (${t.startsAt} is not null and ${t.endsAt} is not null)`),
  ],
);

/** Impressions and clicks of an ad per day (Moscow date), incremented in place. */
export const adDailyStats = pgTable(
  "ad_daily_stats",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => adCampaigns.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    impressions: integer("impressions").notNull().default(0),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.day] }), check("ad_daily_stats_counts", sql`${t.impressions} >= 0 and ${t.clicks} >= 0`)],
);
