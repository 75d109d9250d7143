/**
 * Advertising (issue 11; docs/product/pages.md#ads): slots, members' ad requests paid through the
 * ledger, and the admins' review. The money follows docs/product/money.md#recipe-ad-request-approval-and-rejection:
 *
 * - A request holds `days × price per day` kopecks: member available → escrow `ad:{id}`
 *   (`ad_hold`), in one operation with the request row, under the member's idempotency key.
 * - Approval moves the escrow to the platform (`ad_payment`) and fixes the period; rejection
 *   returns it (`ad_release`) with a reason. Both lock the request row first, then the slot,
 *   then the accounts (the ledger's lock order), so a request is reviewed once. Each review is
 *   written to the audit log in the same transaction (docs/product/moderation.md#audit-log).
 *
 * Every function takes the database first and throws the typed errors of ~/lib/errors.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "~/db/client.server";
import { adCampaigns, adSlots } from "~/db/schema";
import { Conflict, InsufficientFunds, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { probeImage } from "~/lib/images/decode.server";
import type { FileStorage } from "~/lib/storage/storage.server";
import { memberBalances, postTransfers, type AccountRef } from "../ledger/ledger.server";
import { formatKopecks, isValidAmount } from "../ledger/money";
import { assertIdempotencyKey, runOperationDetailed } from "../ledger/operations.server";
import { writeAudit } from "../moderation/audit.server";
import { assertMayPublish } from "../moderation/sanctions.server";
import { assertAdmin } from "../users/roles-admin";
import type { UserRole } from "../users/roles";
import { earliestStart } from "./schedule";
import { AdFieldsSchema, RejectAdFormSchema } from "./schemas";
import { AD_IMAGE_SIZE, type AdSlotDto } from "./types";

export type Actor = { id: number; role: UserRole };
type CampaignRow = typeof adCampaigns.$inferSelect;

export const DAY_MS = 86_400_000;
/** Moscow is UTC+3 all year: a day's stats are counted by the Moscow date. */
const MOSCOW_OFFSET_MS = 3 * 3_600_000;
/** The escrow account holding ad `id`'s price while it waits (docs/product/money.md#accounts). */
export function adEscrow(id: number): AccountRef {
  return { kind: "escrow", reference: `ad:${id}` };
}

/** The Moscow date (YYYY-MM-DD) of `now`: the day impressions and clicks are counted under. */
export function statsDay(now: Date): string {
  return new Date(now.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** What a new request answers (stored and replayed as is to a retry). */
export interface AdRequestResult {
  adId: number;
  /** Kopecks held. */
  amount: number;
  /** The member's available balance right after the hold, kopecks. */
  balanceAfter: number;
}

/** What a review answers. */
export interface AdReviewResult {
  adId: number;
  state: "approved" | "rejected";
  /** ISO start and end of an approved ad's period; null for a rejection. */
  startsAt: string | null;
  endsAt: string | null;
}

/**
 * `input` parsed with `schema`, or ValidationFailed (400) with each field's Russian messages and
 * the first one as the error's message: the domain's own check of what a form already checked.
 */
export function parseOrRefuse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? "form");
    fieldErrors[name] = [...(fieldErrors[name] ?? []), issue.message];
  }
  throw new ValidationFailed(parsed.error.issues[0]!.message, fieldErrors);
}

/**
 * The columns of an AdSlotDto for a select from `ad_slots`: the slot's fields and `running`, how
 * many approved ads run in it at `now` (a correlated count; Number() it, drivers differ).
 */
export function adSlotColumns(now: Date) {
  const at = now.toISOString();
  return {
    id: adSlots.id,
    name: adSlots.name,
    placement: adSlots.placement,
    feedPosition: adSlots.feedPosition,
    pricePerDay: adSlots.pricePerDay,
    capacity: adSlots.capacity,
    running: sql<number>`(select count(*)::int from ad_campaigns c
      where c.slot_id = "ad_slots"."id" and c.state = 'approved' and c.starts_at <= ${at}::timestamptz and c.ends_at > ${at}::timestamptz)`,
  };
}

/**
 * The slots on sale (active), with how many ads run in each at `now`. Public.
 */
export async function listAdSlots(db: Db, now: Date = new Date()): Promise<AdSlotDto[]> {
  const rows = await db.select(adSlotColumns(now)).from(adSlots).where(eq(adSlots.active, true)).orderBy(adSlots.id);
  return rows.map((row) => ({ ...row, running: Number(row.running) }));
}

type AdInput = { slotId: unknown; title: unknown; body: unknown; link: unknown; days: unknown; image?: Uint8Array | null };

/** What the confirmation step shows before any money moves (docs/product/interface.md: money moves are confirmed). */
export interface AdPreview {
  slot: { id: number; name: string; pricePerDay: number };
  fields: { slotId: number; title: string; body: string; link: string; days: number };
  /** Kopecks to hold: days × the slot's price per day. */
  amount: number;
  /** The member's available balance now and after the hold, kopecks. */
  available: number;
  balanceAfter: number;
  /** The re-encoded picture as a `data:image/webp;base64,…` URL, posted back by the confirmation form; null without one. */
  image: string | null;
}

/** Checks an ad request's input (fields, sanctions, slot, price, picture by content) as requestAd does, saving nothing. */
async function prepareAd(db: Db, actor: Actor, input: AdInput) {
  const fields = parseOrRefuse(AdFieldsSchema, input);
  await assertMayPublish(db, actor.id);
  const [slot] = await db
    .select()
    .from(adSlots)
    .where(and(eq(adSlots.id, fields.slotId), eq(adSlots.active, true)));
  if (!slot) throw new NotFound("Такого места для рекламы нет", "ad_slot_not_found");
  const amount = fields.days * slot.pricePerDay;
  if (!isValidAmount(amount))
    throw new ValidationFailed("Слишком большая сумма: сократите срок", { days: ["Слишком большая сумма: сократите срок"] }, "invalid_amount");
  const bytes = input.image && input.image.byteLength > 0 ? input.image : null;
  const picture = bytes ? await adPicture(bytes) : null;
  return { fields, slot, amount, bytes, picture };
}

function notEnoughMoney(amount: number, available: number): InsufficientFunds {
  return new InsufficientFunds(
    `Недостаточно денег на балансе: реклама стоит ${formatKopecks(amount)}, доступно ${formatKopecks(available)}. Пополните баланс или сократите срок.`,
  );
}

/**
 * The confirmation step of an ad request (docs/product/pages.md#ads): checks everything requestAd
 * checks — and that the member's available balance covers the price now — and returns what the
 * member is about to pay for. Saves nothing and moves no money; requestAd checks again.
 * Throws what requestAd throws before its operation, and InsufficientFunds (422) when short.
 */
export async function previewAd(db: Db, actor: Actor, input: AdInput): Promise<AdPreview> {
  const { fields, slot, amount, picture } = await prepareAd(db, actor, input);
  const { member_available: available } = await memberBalances(db, actor.id, ["member_available"]);
  if (available < amount) throw notEnoughMoney(amount, available);
  return {
    slot: { id: slot.id, name: slot.name, pricePerDay: slot.pricePerDay },
    fields,
    amount,
    available,
    balanceAfter: available - amount,
    image: picture ? `data:image/webp;base64,${picture.toString("base64")}` : null,
  };
}

/**
 * Member `actor` asks for an ad in slot `input.slotId` (docs/product/pages.md#ads), under
 * idempotency key `key`. `image` is the uploaded picture's bytes (empty or null: none); it is
 * recognised by content, stored as WebP in `storage` and removed again if the request fails.
 * The price, `days × the slot's price per day` kopecks, is held in escrow `ad:{id}`
 * (docs/product/money.md#recipe-ad-request-approval-and-rejection). A retry with the same key
 * replays the first answer and holds nothing more.
 *
 * An ad is published text, so a muted member may not request one (docs/product/moderation.md: mute is
 * read-only) — MemberMuted (403 `member_muted`), AccountSuspended for a suspended one.
 * Throws ValidationFailed (`validation_failed` with field errors, `invalid_text`, `ad_image_unsupported`,
 * `invalid_amount`, `invalid_idempotency_key`), NotFound (`ad_slot_not_found`), InsufficientFunds
 * (`insufficient_funds`, 422, saying how much is needed and available; nothing is saved),
 * Conflict (`idempotency_key_reused`).
 */
export async function requestAd(db: Db, storage: FileStorage, actor: Actor, input: AdInput, key: string): Promise<AdRequestResult> {
  const { fields, slot, amount, bytes, picture } = await prepareAd(db, actor, input);
  assertIdempotencyKey(key);
  const request = {
    slotId: slot.id,
    title: fields.title,
    body: fields.body,
    link: fields.link,
    days: fields.days,
    image: bytes ? createHash("sha256").update(bytes).digest("hex") : null,
  };
  const imageKey = picture ? `ads/${randomBytes(12).toString("hex")}.webp` : null;
  if (picture && imageKey) await storage.put(imageKey, picture, "image/webp");
  try {
    const { result, replayed } = await runOperationDetailed(db, actor.id, key, "ad.request", request, async (tx, operation): Promise<AdRequestResult> => {
      const [row] = await tx
        .insert(adCampaigns)
        .values({
          advertiserId: actor.id,
          slotId: slot.id,
          title: fields.title,
          body: fields.body,
          link: fields.link,
          imageKey,
          days: fields.days,
          pricePerDay: slot.pricePerDay,
          amount,
        })
        .returning({ id: adCampaigns.id });
      const [hold] = await postTransfers(tx, operation.id, [
        { kind: "ad_hold", from: { kind: "member_available", userId: actor.id }, to: adEscrow(row!.id), amount, memo: `Реклама №${row!.id}` },
      ]);
      return { adId: row!.id, amount, balanceAfter: hold!.debitBalanceAfter };
    });
    if (replayed && imageKey) await storage.delete(imageKey);
    return result;
  } catch (error) {
    if (imageKey) await storage.delete(imageKey);
    if (error instanceof InsufficientFunds) {
      const { member_available: available } = await memberBalances(db, actor.id, ["member_available"]);
      throw notEnoughMoney(amount, available);
    }
    throw error;
  }
}

/**
 * Admin `actor` approves ad request `adId` under idempotency key `key`: its price moves from
 * the escrow to the platform (`ad_payment`) and it runs `days` days from the earliest moment its
 * slot has a free place (now, if there is one). The advertiser is notified (AD_APPROVED).
 * Throws Forbidden (`not_admin`: moderators and members too), NotFound (`ad_not_found`),
 * Conflict (`ad_already_reviewed`, `idempotency_key_reused`).
 */
export async function approveAd(db: Db, actor: Actor, adId: number, key: string, now: Date = new Date()): Promise<AdReviewResult> {
  return review(db, actor, adId, key, { decision: "approve" }, now);
}

/**
 * Admin `actor` rejects ad request `adId` with `reason` (1–500 characters, shown to the
 * advertiser) under idempotency key `key`: the held price goes back to the advertiser's
 * available balance (`ad_release`). The advertiser is notified (AD_REJECTED).
 * Throws ValidationFailed (`validation_failed`, `invalid_text`), Forbidden (`not_admin`), NotFound
 * (`ad_not_found`), Conflict (`ad_already_reviewed`, `idempotency_key_reused`).
 */
export async function rejectAd(db: Db, actor: Actor, adId: number, reason: string, key: string, now: Date = new Date()): Promise<AdReviewResult> {
  const parsed = RejectAdFormSchema.shape.reason.safeParse(reason);
  if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]!.message, { reason: [parsed.error.issues[0]!.message] });
  return review(db, actor, adId, key, { decision: "reject", reason: parsed.data }, now);
}

async function review(
  db: Db,
  actor: Actor,
  adId: number,
  key: string,
  decision: { decision: "approve" } | { decision: "reject"; reason: string },
  now: Date,
): Promise<AdReviewResult> {
  assertAdmin(actor);
  if (!isValidId(adId)) throw adNotFound();
  const kind = decision.decision === "approve" ? "ad.approve" : "ad.reject";
  const { result, replayed } = await runOperationDetailed(db, actor.id, key, kind, { adId, ...decision }, async (tx, operation) => {
    const [ad] = await tx.select().from(adCampaigns).where(eq(adCampaigns.id, adId)).for("update");
    if (!ad) throw adNotFound();
    if (ad.state !== "pending") throw new Conflict("Заявка уже рассмотрена", "ad_already_reviewed");
    const memo = `Реклама №${ad.id}`;
    if (decision.decision === "reject") {
      await postTransfers(tx, operation.id, [
        { kind: "ad_release", from: adEscrow(ad.id), to: { kind: "member_available", userId: ad.advertiserId }, amount: ad.amount, memo },
      ]);
      await tx
        .update(adCampaigns)
        .set({ state: "rejected", rejectionReason: decision.reason, reviewedBy: actor.id, reviewedAt: now })
        .where(eq(adCampaigns.id, ad.id));
      await writeAudit(tx, {
        actorId: actor.id,
        action: "ad.reject",
        targetType: "ad",
        targetId: ad.id,
        targetUserId: ad.advertiserId,
        reason: decision.reason,
        details: { title: ad.title, amount: ad.amount },
      });
      return { advertiserId: ad.advertiserId, review: { adId: ad.id, state: "rejected" as const, startsAt: null, endsAt: null } };
    }
    const startsAt = new Date(await startOf(tx, ad, now));
    const endsAt = new Date(startsAt.getTime() + ad.days * DAY_MS);
    await postTransfers(tx, operation.id, [{ kind: "ad_payment", from: adEscrow(ad.id), to: { kind: "platform_fee" }, amount: ad.amount, memo }]);
    await tx.update(adCampaigns).set({ state: "approved", reviewedBy: actor.id, reviewedAt: now, startsAt, endsAt }).where(eq(adCampaigns.id, ad.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: "ad.approve",
      targetType: "ad",
      targetId: ad.id,
      targetUserId: ad.advertiserId,
      details: { title: ad.title, amount: ad.amount, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
    });
    return {
      advertiserId: ad.advertiserId,
      review: { adId: ad.id, state: "approved" as const, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
    };
  });
  if (!replayed) {
    eventBus(db).publish({ type: "ad.reviewed", adId, advertiserId: result.advertiserId, adminId: actor.id, approved: result.review.state === "approved" });
  }
  return result.review;
}

/** The earliest start (ms) with a free place in the ad's slot, read under the slot row's lock so two approvals queue. */
async function startOf(tx: Tx, ad: CampaignRow, now: Date): Promise<number> {
  const [slot] = await tx.select({ capacity: adSlots.capacity }).from(adSlots).where(eq(adSlots.id, ad.slotId)).for("update");
  const occupied = await tx
    .select({ startsAt: adCampaigns.startsAt, endsAt: adCampaigns.endsAt })
    .from(adCampaigns)
    .where(and(eq(adCampaigns.slotId, ad.slotId), eq(adCampaigns.state, "approved"), gt(adCampaigns.endsAt, now)));
  return earliestStart(
    now.getTime(),
    ad.days * DAY_MS,
    slot!.capacity,
    occupied.map((row) => ({ start: row.startsAt!.getTime(), end: row.endsAt!.getTime() })),
  );
}

/** The bytes of a picture posted back as a data URL by the confirmation step (AdRequestFormSchema `imageData`); requestAd checks them again. */
export function imageDataBytes(dataUrl: string): Uint8Array {
  return new Uint8Array(Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"));
}

/** An ad picture fitted inside 1200×1200 as WebP; throws ValidationFailed (`ad_image_unsupported`) when the bytes are not an accepted picture. */
async function adPicture(bytes: Uint8Array): Promise<Buffer> {
  const message = "Картинка должна быть изображением JPEG, PNG, WebP, GIF или AVIF";
  const image = await probeImage(bytes);
  if (!image) throw new ValidationFailed(message, { image: [message] }, "ad_image_unsupported");
  try {
    return await image.pipeline.resize(AD_IMAGE_SIZE, AD_IMAGE_SIZE, { fit: "inside", withoutEnlargement: true }).webp({ quality: 82 }).toBuffer();
  } catch {
    throw new ValidationFailed(message, { image: [message] }, "ad_image_unsupported");
  }
}

/** The refusal for an ad request that does not exist (or is not the caller's). */
export function adNotFound(): NotFound {
  return new NotFound("Заявка на рекламу не найдена", "ad_not_found");
}
