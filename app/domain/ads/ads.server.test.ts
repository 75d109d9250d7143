import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adCampaigns, adDailyStats, adSlots, ledgerAccounts, ledgerTransfers } from "~/db/schema";
import { auditLedger } from "~/domain/ledger/audit.server";
import { topUp } from "~/domain/ledger/wallet.server";
import { getBalances, listBalanceLog } from "~/domain/ledger/balances.server";
import { muteMember } from "~/domain/moderation/sanctions.server";
import { registerNotificationRules } from "~/domain/notifications/subscribers.server";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus } from "~/lib/events.server";
import { getStorage } from "~/lib/storage/storage.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { inboxOf } from "../../../tests/setup/domain";
import { ledgerSnapshot } from "../../../tests/setup/ledger";
import { makeMember } from "../../../tests/setup/moderation";
import { clickAd, listAdsForReview, listMyAds, listRunningAds } from "./ad-listings.server";
import { flushImpressions, queueImpressions } from "./impression-buffer.server";
import { approveAd, imageDataBytes, previewAd, listAdSlots, rejectAd, requestAd, statsDay } from "./ads.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let feedSlot: { id: number; pricePerDay: number };
let headerSlot: { id: number; pricePerDay: number };
let keys = 0;
const key = () => `ads-${++keys}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "ads-test-"));
const storage = getStorage({ dataDir });
const storedFiles = () => {
  try {
    return readdirSync(path.join(dataDir, "uploads"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  } catch {
    return 0;
  }
};
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
  const slots = await t.db.select().from(adSlots).orderBy(adSlots.id);
  feedSlot = slots.find((slot) => slot.placement === "feed")!;
  headerSlot = slots.find((slot) => slot.placement === "header")!;
});
afterAll(async () => {
  await eventBus(t.db).drain();
  await t?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

async function funded(kopecks: number): Promise<UserRow> {
  const member = await makeMember(t.db);
  if (kopecks > 0) await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

const fields = (slotId: number, days = 2) => ({ slotId, title: "Продам скины CS2", body: "Дёшево и с гарантом", link: "https://example.com/skins", days });

/** Every money invariant, and the audit (ad escrows included) finds nothing. */
async function expectInvariants() {
  expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
  expect((await auditLedger(t.db)).drifts).toEqual([]);
}

async function escrowOf(adId: number): Promise<number> {
  const [row] = await t.db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.reference, `ad:${adId}`));
  return row?.balance ?? 0;
}

async function platformFee(): Promise<number> {
  const [row] = await t.db.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.kind, "platform_fee"));
  return row!.balance;
}

describe(`ad money on ${engine}`, () => {
  it("the migration offers slots in the feed, the sidebar and the header", async () => {
    const slots = await listAdSlots(t.db);
    expect(slots.map((slot) => slot.placement).sort()).toEqual(["feed", "header", "sidebar"]);
    expect(slots.every((slot) => slot.pricePerDay > 0 && slot.capacity > 0)).toBe(true);
  });

  it("a request holds days × price in the ad's escrow; the balance log shows it", async () => {
    const member = await funded(100_000);
    const result = await requestAd(t.db, storage, member, fields(feedSlot.id, 2), key());
    expect(result.amount).toBe(2 * feedSlot.pricePerDay);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 100_000 - result.amount, held: 0, deposit: 0 });
    expect(await escrowOf(result.adId)).toBe(result.amount);
    const [entry] = (await listBalanceLog(t.db, member.id, { page: 1, perPage: 10 })).items;
    expect(entry).toMatchObject({ type: "ad_hold", amount: -result.amount, counterparty: null, memo: `Реклама №${result.adId}` });
    const [mine] = await listMyAds(t.db, storage, member.id);
    expect(mine).toMatchObject({ id: result.adId, state: "pending", amount: result.amount, running: false });
    await expectInvariants();
  });

  it("approval pays the platform, starts the ad at once and notifies the advertiser", async () => {
    const member = await funded(100_000);
    const { adId, amount } = await requestAd(t.db, storage, member, fields(feedSlot.id, 1), key());
    const feeBefore = await platformFee();
    const now = new Date();
    const review = await approveAd(t.db, admin, adId, key(), now);
    await eventBus(t.db).drain();
    expect(review).toMatchObject({ state: "approved", startsAt: now.toISOString(), endsAt: new Date(now.getTime() + DAY).toISOString() });
    expect(await escrowOf(adId)).toBe(0);
    expect(await platformFee()).toBe(feeBefore + amount);
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 100_000 - amount });
    expect((await listRunningAds(t.db, storage)).map((ad) => ad.id)).toContain(adId);
    expect((await inboxOf(t.db, member)).find((n) => n.type === "AD_APPROVED")).toMatchObject({ senderId: admin.id });
    await expectInvariants();
  });

  it("rejection returns the whole hold with the reason and notifies the advertiser", async () => {
    const member = await funded(100_000);
    const { adId } = await requestAd(t.db, storage, member, fields(feedSlot.id, 3), key());
    await rejectAd(t.db, admin, adId, "Сомнительный сайт", key());
    await eventBus(t.db).drain();
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 100_000 });
    expect(await escrowOf(adId)).toBe(0);
    const [mine] = await listMyAds(t.db, storage, member.id);
    expect(mine).toMatchObject({ state: "rejected", rejectionReason: "Сомнительный сайт" });
    const [entry] = (await listBalanceLog(t.db, member.id, { page: 1, perPage: 10 })).items;
    expect(entry).toMatchObject({ type: "ad_release", amount: 3 * feedSlot.pricePerDay });
    expect((await inboxOf(t.db, member)).find((n) => n.type === "AD_REJECTED")).toMatchObject({ senderId: admin.id });
    expect((await listRunningAds(t.db, storage)).map((ad) => ad.id)).not.toContain(adId);
    await expectInvariants();
  });

  it("not enough money: a Russian message with the price, nothing saved, no money moved", async () => {
    const member = await funded(1_000);
    const transfers = (await t.db.select({ id: ledgerTransfers.id }).from(ledgerTransfers)).length;
    const files = storedFiles();
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#f00" } })
      .png()
      .toBuffer();
    await expect(requestAd(t.db, storage, member, { ...fields(headerSlot.id, 1), image: png }, key())).rejects.toMatchObject({
      code: "insufficient_funds",
      status: 422,
      message: expect.stringMatching(/Недостаточно денег.*500,00\s₽.*доступно 10,00\s₽/u),
    });
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, member.id))).toEqual([]);
    expect((await t.db.select({ id: ledgerTransfers.id }).from(ledgerTransfers)).length).toBe(transfers);
    expect(storedFiles()).toBe(files);
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 1_000 });
    await expectInvariants();
  });

  it("the confirmation step checks everything and the balance, and saves and moves nothing; its picture posts back", async () => {
    const member = await funded(100_000);
    const png = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#00f" } })
      .png()
      .toBuffer();
    const files = storedFiles();
    const preview = await previewAd(t.db, member, { ...fields(feedSlot.id, 3), image: png });
    expect(preview).toMatchObject({ amount: 3 * feedSlot.pricePerDay, available: 100_000, balanceAfter: 100_000 - 3 * feedSlot.pricePerDay });
    expect(preview.image).toMatch(/^data:image\/webp;base64,/u);
    expect(storedFiles()).toBe(files);
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, member.id))).toEqual([]);
    await expect(previewAd(t.db, member, fields(headerSlot.id, 3))).rejects.toMatchObject({ code: "insufficient_funds" });
    await expect(previewAd(t.db, member, { ...fields(feedSlot.id), link: "javascript:alert(1)" })).rejects.toMatchObject({ status: 400 });
    const { adId } = await requestAd(t.db, storage, member, { ...fields(feedSlot.id, 3), image: imageDataBytes(preview.image!) }, key());
    expect((await listMyAds(t.db, storage, member.id))[0]).toMatchObject({ id: adId, imageUrl: expect.stringMatching(/\.webp$/u) });
    await expectInvariants();
  });

  it("a double submit with the same key holds once; the key cannot be reused for another request", async () => {
    const member = await funded(100_000);
    const same = key();
    const [first, second] = await Promise.all([
      requestAd(t.db, storage, member, fields(feedSlot.id, 1), same),
      requestAd(t.db, storage, member, fields(feedSlot.id, 1), same),
    ]);
    expect(second).toEqual(first);
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, member.id))).toHaveLength(1);
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 100_000 - feedSlot.pricePerDay });
    await expect(requestAd(t.db, storage, member, fields(feedSlot.id, 2), same)).rejects.toMatchObject({ code: "idempotency_key_reused" });
    await expectInvariants();
  });

  it("a review is done once: a retried approval replays, a second decision is refused", async () => {
    const member = await funded(100_000);
    const { adId, amount } = await requestAd(t.db, storage, member, fields(feedSlot.id, 1), key());
    const approval = key();
    const first = await approveAd(t.db, admin, adId, approval);
    expect(await approveAd(t.db, admin, adId, approval)).toEqual(first);
    await expect(rejectAd(t.db, admin, adId, "Передумал", key())).rejects.toMatchObject({ code: "ad_already_reviewed", status: 409 });
    await expect(approveAd(t.db, admin, adId, key())).rejects.toMatchObject({ code: "ad_already_reviewed" });
    const payments = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.kind, "ad_payment"));
    expect(payments.filter((row) => row.memo === `Реклама №${adId}`).map((row) => row.amount)).toEqual([amount]);
    await expectInvariants();
  });

  it("a full slot queues the next approved ad until a place frees", async () => {
    const [a, b] = [await funded(200_000), await funded(200_000)];
    const now = new Date(Date.now() + 400 * DAY); // far from the other tests' ads in this one-place slot
    const first = await requestAd(t.db, storage, a, fields(headerSlot.id, 2), key());
    const second = await requestAd(t.db, storage, b, fields(headerSlot.id, 1), key());
    await approveAd(t.db, admin, first.adId, key(), now);
    const queued = await approveAd(t.db, admin, second.adId, key(), now);
    expect(queued.startsAt).toBe(new Date(now.getTime() + 2 * DAY).toISOString());
    const running = (await listRunningAds(t.db, storage, new Date(now.getTime() + DAY))).map((ad) => ad.id);
    expect(running).toContain(first.adId);
    expect(running).not.toContain(second.adId);
    expect((await listAdSlots(t.db, new Date(now.getTime() + DAY))).find((slot) => slot.id === headerSlot.id)).toMatchObject({ running: 1, capacity: 1 });
    await expectInvariants();
  });
});

describe("who may do what", () => {
  it("only admins review: moderators, members and the advertiser are refused and nothing moves", async () => {
    const member = await funded(100_000);
    const other = await funded(0);
    const { adId } = await requestAd(t.db, storage, member, fields(feedSlot.id, 1), key());
    for (const actor of [moderator, other, member]) {
      await expect(approveAd(t.db, actor, adId, key())).rejects.toMatchObject({ code: "not_admin", status: 403 });
      await expect(rejectAd(t.db, actor, adId, "Нет", key())).rejects.toMatchObject({ code: "not_admin", status: 403 });
      await expect(listAdsForReview(t.db, storage, actor)).rejects.toMatchObject({ code: "not_admin" });
    }
    expect(await escrowOf(adId)).toBe(100 * 300);
    const review = await listAdsForReview(t.db, storage, admin);
    expect(review.pending.map((ad) => ad.id)).toContain(adId);
    expect(await listMyAds(t.db, storage, other.id)).toEqual([]);
    await expect(approveAd(t.db, admin, 2_000_000, key())).rejects.toMatchObject({ code: "ad_not_found", status: 404 });
    await expectInvariants();
  });
});

describe("bad input", () => {
  it.each([
    ["javascript:alert(1)", "link"],
    ["JAVASCRIPT:alert(1)//https://x.ru", "link"],
    ["data:text/html,<script>1</script>", "link"],
    ["//evil.example", "link"],
    ["https://user:pass@example.com", "link"],
    ["ftp://example.com", "link"],
  ])("refuses the link %s, saving nothing", async (link, field) => {
    const member = await funded(100_000);
    await expect(requestAd(t.db, storage, member, { ...fields(feedSlot.id), link }, key())).rejects.toMatchObject({
      status: 400,
      fieldErrors: { [field]: [expect.stringContaining("http")] },
    });
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, member.id))).toEqual([]);
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 100_000 });
  });

  it("refuses a file that is not a picture, a bad slot, title, days and reason", async () => {
    const member = await funded(100_000);
    const files = storedFiles();
    await expect(
      requestAd(t.db, storage, member, { ...fields(feedSlot.id), image: new TextEncoder().encode("<svg onload=alert(1)></svg>") }, key()),
    ).rejects.toMatchObject({ code: "ad_image_unsupported", fieldErrors: { image: [expect.stringContaining("JPEG")] } });
    await expect(requestAd(t.db, storage, member, fields(999_999), key())).rejects.toMatchObject({ code: "ad_slot_not_found", status: 404 });
    await expect(requestAd(t.db, storage, member, { ...fields(feedSlot.id), title: "a" }, key())).rejects.toMatchObject({
      fieldErrors: { title: expect.any(Array) },
    });
    await expect(requestAd(t.db, storage, member, { ...fields(feedSlot.id), days: 31 }, key())).rejects.toMatchObject({
      fieldErrors: { days: expect.any(Array) },
    });
    await expect(requestAd(t.db, storage, member, { ...fields(feedSlot.id), days: "два" }, key())).rejects.toMatchObject({
      fieldErrors: { days: expect.any(Array) },
    });
    await expect(requestAd(t.db, storage, member, { ...fields(feedSlot.id), body: "текст\u0000" }, key())).rejects.toMatchObject({ status: 400 });
    await expect(requestAd(t.db, storage, member, fields(feedSlot.id), "bad key with spaces")).rejects.toMatchObject({ code: "invalid_idempotency_key" });
    const { adId } = await requestAd(t.db, storage, member, fields(feedSlot.id), key());
    await expect(rejectAd(t.db, admin, adId, "   ", key())).rejects.toMatchObject({ status: 400, fieldErrors: { reason: expect.any(Array) } });
    expect(storedFiles()).toBe(files);
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, member.id))).toHaveLength(1);
    await expectInvariants();
  });

  it("a muted member may not request an ad (mute is read-only); nothing is held", async () => {
    const member = await funded(100_000);
    await muteMember(t.db, moderator.id, member.id, { reason: "Флуд", endsAt: null });
    await expect(requestAd(t.db, storage, member, fields(feedSlot.id), key())).rejects.toMatchObject({ code: "member_muted", status: 403 });
    expect(await getBalances(t.db, member.id)).toMatchObject({ available: 100_000 });
    expect(await t.db.select().from(adCampaigns).where(eq(adCampaigns.advertiserId, member.id))).toEqual([]);
  });

  it("stores an uploaded picture as WebP and shows it", async () => {
    const member = await funded(100_000);
    const png = await sharp({ create: { width: 2400, height: 600, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    const { adId } = await requestAd(t.db, storage, member, { ...fields(feedSlot.id), image: png }, key());
    const [mine] = await listMyAds(t.db, storage, member.id);
    expect(mine!.id).toBe(adId);
    const stored = await storage.get(mine!.imageUrl!.replace("/uploads/", ""));
    expect(stored?.contentType).toBe("image/webp");
    expect((await sharp(stored!.bytes).metadata()).width).toBe(1200);
  });
});

describe("impressions, clicks and expiry", () => {
  it("counts impressions and clicks per day for the advertiser; an expired ad stops showing and counting", async () => {
    const member = await funded(100_000);
    const start = new Date(Date.now() + 800 * DAY);
    const { adId } = await requestAd(t.db, storage, member, fields(feedSlot.id, 1), key());
    await approveAd(t.db, admin, adId, key(), start);
    const during = new Date(start.getTime() + 3_600_000);
    // Two home pages showed it: the impressions wait in this process's queue, and the advertiser's list writes them first.
    queueImpressions(t.db, [adId], during);
    queueImpressions(t.db, [adId, adId], during);
    expect(await clickAd(t.db, adId, during)).toBe("https://example.com/skins");
    const [mine] = await listMyAds(t.db, storage, member.id, during);
    expect(mine).toMatchObject({ impressions: 2, clicks: 1, running: true, daily: [{ day: statsDay(during), impressions: 2, clicks: 1 }] });

    const after = new Date(start.getTime() + DAY + 1);
    expect((await listRunningAds(t.db, storage, after)).map((ad) => ad.id)).not.toContain(adId);
    expect(await clickAd(t.db, adId, after)).toBe("https://example.com/skins");
    const [row] = await t.db.select().from(adDailyStats).where(eq(adDailyStats.campaignId, adId));
    expect(row!.clicks).toBe(1);
    expect((await listMyAds(t.db, storage, member.id, after))[0]).toMatchObject({ expired: true, running: false });
  });

  it("impressions of many home pages at once are added up per ad and day, written in one flush; an ad deleted before it is skipped", async () => {
    const member = await funded(200_000);
    const start = new Date(Date.now() + 900 * DAY);
    const shown = [];
    for (let i = 0; i < 2; i += 1) {
      const { adId } = await requestAd(t.db, storage, member, fields(feedSlot.id, 1), key());
      await approveAd(t.db, admin, adId, key(), start);
      shown.push(adId);
    }
    const [kept, deleted] = shown as [number, number];
    const during = new Date(start.getTime() + 3_600_000);
    for (let page = 0; page < 50; page += 1) queueImpressions(t.db, [kept, deleted], during);
    await t.db.delete(adCampaigns).where(eq(adCampaigns.id, deleted));
    await flushImpressions(t.db);
    const rows = await t.db.select().from(adDailyStats).where(inArray(adDailyStats.campaignId, shown));
    expect(rows).toEqual([{ campaignId: kept, day: statsDay(during), impressions: 50, clicks: 0 }]);
  });

  it("a pending or rejected ad has no redirect", async () => {
    const member = await funded(100_000);
    const { adId } = await requestAd(t.db, storage, member, fields(feedSlot.id, 1), key());
    await expect(clickAd(t.db, adId)).rejects.toMatchObject({ code: "ad_not_found", status: 404 });
    await rejectAd(t.db, admin, adId, "Нет", key());
    await expect(clickAd(t.db, adId)).rejects.toMatchObject({ code: "ad_not_found" });
  });
});
