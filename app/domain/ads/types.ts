/**
 * Shapes and limits of advertising (docs/product/pages.md#ads). Pure: pages and the browser
 * bundle use them too. Amounts are kopecks.
 */
import type { AdPlacement, AdState } from "~/db/schema-ads";

export type { AdPlacement, AdState };

/** Title of an ad, characters. */
export const AD_TITLE_MIN = 3;
export const AD_TITLE_MAX = 80;
/** Text of an ad, characters. */
export const AD_BODY_MAX = 300;
/** A link, characters. */
export const AD_LINK_MAX = 2000;
/** Days an ad may run: 1 … 30. */
export const AD_DAYS_MAX = 30;
/** The longest side of a stored ad picture, pixels (stored as WebP). */
export const AD_IMAGE_SIZE = 1200;
/** Uploaded pictures up to 10 MB (docs/product/limits.md). */
export const AD_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** A rejection reason, characters. */
export const AD_REASON_MAX = 500;
/** A slot's name, characters (the admins' slot form, /admin/ads/slots). */
export const AD_SLOT_NAME_MIN = 2;
export const AD_SLOT_NAME_MAX = 80;
/** Ads a slot may run at once: 1 … 20. */
export const AD_SLOT_CAPACITY_MAX = 20;
/** A feed slot shows after 0 … 50 posts (a page holds at most 50). */
export const AD_FEED_POSITION_MAX = 50;
/** A slot's price per day, kopecks: 1 ₽ … 1 000 000 ₽. */
export const AD_SLOT_PRICE_MIN = 100;
export const AD_SLOT_PRICE_MAX = 100_000_000;
/** The label every running ad carries. */
export const AD_LABEL = "Реклама";
/** What an ad's link carries (docs/product/pages.md#ads). */
export const AD_LINK_REL = "sponsored noopener";

/** Where a placement shows, for the slot list of /ads (feed slots name their post count instead). */
export const AD_PLACEMENT_LABELS: Record<AdPlacement, string> = {
  feed: "В ленте на главной",
  sidebar: "Блок рядом с лентой на главной",
  header: "Над обложкой главной страницы",
};

export const AD_STATE_LABELS: Record<AdState, string> = {
  pending: "На проверке",
  approved: "Одобрена",
  rejected: "Отклонена",
};

/** A slot on sale, as /ads lists it. */
export interface AdSlotDto {
  id: number;
  name: string;
  placement: AdPlacement;
  /** Feed slots: shown after this many posts; null otherwise. */
  feedPosition: number | null;
  pricePerDay: number;
  capacity: number;
  /** Ads running in it now. */
  running: number;
}

/** A slot as the admins' slot list shows it: on sale or not, and the requests waiting in it. */
export interface AdminAdSlotDto extends AdSlotDto {
  active: boolean;
  /** Requests waiting for review in it. */
  pending: number;
}

/** Impressions and clicks of one day (YYYY-MM-DD, Moscow). */
export interface AdDayStats {
  day: string;
  impressions: number;
  clicks: number;
}

/** An ad request as its advertiser and the admins see it. */
export interface AdCampaignDto {
  id: number;
  advertiser: { id: number; username: string };
  slot: { id: number; name: string; placement: AdPlacement };
  title: string;
  body: string;
  link: string;
  imageUrl: string | null;
  days: number;
  amount: number;
  state: AdState;
  /** True while approved and inside its period. */
  running: boolean;
  /** True once approved and its period has passed. */
  expired: boolean;
  rejectionReason: string | null;
  /** ISO times. */
  createdAt: string;
  startsAt: string | null;
  endsAt: string | null;
  impressions: number;
  clicks: number;
  /** Newest day first (advertiser's view only; empty for admins). */
  daily: AdDayStats[];
}

/** An ad shown on a page: what the visitor sees, with the click-counting link. */
export interface RunningAdDto {
  id: number;
  slotId: number;
  placement: AdPlacement;
  feedPosition: number | null;
  title: string;
  body: string;
  imageUrl: string | null;
  /** The click-counting redirect on this site: /ads/{id}/click. */
  href: string;
  /** Where it leads (shown to the reader as the host). */
  host: string;
}

/** The click-counting redirect of ad `id`. */
export function adClickPath(id: number): string {
  return `/ads/${id}/click`;
}
