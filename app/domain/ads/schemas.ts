/**
 * The forms of /ads and /admin/ads (docs/product/pages.md#ads), shared by Conform in the browser,
 * the actions and the domain (which parses again: one rule for every caller).
 */
import { z } from "zod";
import { IdempotencyKeySchema } from "~/lib/idempotency";
import { cleanTextRefinement } from "~/lib/text";
import { roublesField } from "../ledger/money-schemas";
import {
  AD_BODY_MAX,
  AD_DAYS_MAX,
  AD_FEED_POSITION_MAX,
  AD_IMAGE_MAX_BYTES,
  AD_LINK_MAX,
  AD_PLACEMENT_LABELS,
  AD_REASON_MAX,
  AD_SLOT_CAPACITY_MAX,
  AD_SLOT_NAME_MAX,
  AD_SLOT_NAME_MIN,
  AD_SLOT_PRICE_MAX,
  AD_SLOT_PRICE_MIN,
  AD_TITLE_MAX,
  AD_TITLE_MIN,
  type AdPlacement,
} from "./types";

const LINK_MESSAGE = "Ссылка должна начинаться с http:// или https:// и вести на сайт";

/**
 * True for an absolute http(s) URL with a host — never `javascript:`, `data:`, `vbscript:`,
 * protocol-relative or credentials-carrying links.
 */
export function isSafeAdLink(value: string): boolean {
  if (!/^https?:\/\//iu.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0 && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

const id = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

/** The fields of an ad request (without the picture, which the domain checks by content). */
export const AdFieldsSchema = z.object({
  slotId: id("Выберите место размещения"),
  title: z
    .string({ error: "Укажите заголовок" })
    .trim()
    .min(AD_TITLE_MIN, `Заголовок — от ${AD_TITLE_MIN} до ${AD_TITLE_MAX} символов`)
    .max(AD_TITLE_MAX, `Заголовок — от ${AD_TITLE_MIN} до ${AD_TITLE_MAX} символов`)
    .refine(...cleanTextRefinement()),
  body: z
    .string({ error: "Напишите текст объявления" })
    .trim()
    .min(1, "Напишите текст объявления")
    .max(AD_BODY_MAX, `Текст — не длиннее ${AD_BODY_MAX} символов`)
    .refine(...cleanTextRefinement()),
  link: z
    .string({ error: "Укажите ссылку" })
    .trim()
    .min(1, "Укажите ссылку")
    .max(AD_LINK_MAX, `Ссылка — не длиннее ${AD_LINK_MAX} символов`)
    .refine(isSafeAdLink, LINK_MESSAGE),
  days: z.coerce
    .number({ error: `Срок — от 1 до ${AD_DAYS_MAX} дней` })
    .int(`Срок — от 1 до ${AD_DAYS_MAX} дней`)
    .min(1, `Срок — от 1 до ${AD_DAYS_MAX} дней`)
    .max(AD_DAYS_MAX, `Срок — от 1 до ${AD_DAYS_MAX} дней`),
});
export type AdFields = z.output<typeof AdFieldsSchema>;

const image = z
  .instanceof(File)
  .refine((file) => file.size <= AD_IMAGE_MAX_BYTES, "Картинка слишком большая: не больше 10 МБ")
  .optional();

/** The first step of /ads: the fields and an optional picture, checked and shown for confirmation (nothing is paid yet). */
export const AdPreviewFormSchema = AdFieldsSchema.extend({ intent: z.literal("preview"), image, key: IdempotencyKeySchema });

/**
 * The confirmed request of /ads: the fields, the picture (the confirmation step posts back the
 * re-encoded picture as a WebP data URL in `imageData`; a file in `image` is accepted too) and the
 * idempotency key. The server checks the picture's content again either way.
 */
export const AdRequestFormSchema = AdFieldsSchema.extend({
  intent: z.literal("request"),
  image,
  imageData: z
    .string()
    .max(Math.ceil((AD_IMAGE_MAX_BYTES * 4) / 3) + 64, "Картинка слишком большая: не больше 10 МБ")
    .regex(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/u, "Картинка повреждена: выберите её ещё раз")
    .optional(),
  key: IdempotencyKeySchema,
});

/** Both steps of /ads, told apart by `intent`. */
export const AdsActionSchema = z.discriminatedUnion("intent", [AdPreviewFormSchema, AdRequestFormSchema]);

/** The review forms of /admin/ads. */
export const ApproveAdFormSchema = z.object({ intent: z.literal("approve"), adId: id("Заявка не найдена"), key: IdempotencyKeySchema });
export const RejectAdFormSchema = z.object({
  intent: z.literal("reject"),
  adId: id("Заявка не найдена"),
  reason: z
    .string({ error: "Укажите причину отказа" })
    .trim()
    .min(1, "Укажите причину отказа")
    .max(AD_REASON_MAX, `Причина — не длиннее ${AD_REASON_MAX} символов`)
    .refine(...cleanTextRefinement()),
  key: IdempotencyKeySchema,
});
export const AdReviewFormSchema = z.discriminatedUnion("intent", [ApproveAdFormSchema, RejectAdFormSchema]);

const PLACEMENTS = Object.keys(AD_PLACEMENT_LABELS) as [AdPlacement, ...AdPlacement[]];
const CAPACITY_MESSAGE = `Одновременно — от 1 до ${AD_SLOT_CAPACITY_MAX} объявлений`;
const POSITION_MESSAGE = `После скольких постов показывать — от 0 до ${AD_FEED_POSITION_MAX}`;
const PRICE_MESSAGE = "Цена за день — от 1 до 1 000 000 ₽";

/**
 * A slot's fields as admins define them at /admin/ads/slots (docs/product/pages.md#ads): a name,
 * where it shows (a feed slot also says after how many posts), how many ads may run at once, and
 * `active` (false takes it off sale; running ads keep running). The price per day is added by each
 * schema below: the form's roubles or the domain's kopecks.
 */
const AdSlotFields = z.object({
  name: z
    .string({ error: "Укажите название места" })
    .trim()
    .min(AD_SLOT_NAME_MIN, `Название — от ${AD_SLOT_NAME_MIN} до ${AD_SLOT_NAME_MAX} символов`)
    .max(AD_SLOT_NAME_MAX, `Название — от ${AD_SLOT_NAME_MIN} до ${AD_SLOT_NAME_MAX} символов`)
    .refine(...cleanTextRefinement()),
  placement: z.enum(PLACEMENTS, { error: "Выберите, где показывать рекламу" }),
  feedPosition: z.number({ error: POSITION_MESSAGE }).int(POSITION_MESSAGE).min(0, POSITION_MESSAGE).max(AD_FEED_POSITION_MAX, POSITION_MESSAGE).nullish(),
  capacity: z.number({ error: CAPACITY_MESSAGE }).int(CAPACITY_MESSAGE).min(1, CAPACITY_MESSAGE).max(AD_SLOT_CAPACITY_MAX, CAPACITY_MESSAGE),
  active: z.boolean().default(false),
});

type PlacedSlot = { placement: AdPlacement; feedPosition?: number | null };

/** A feed slot must say after how many posts it shows. */
function needsFeedPosition(slot: PlacedSlot, ctx: z.RefinementCtx) {
  if (slot.placement === "feed" && (slot.feedPosition === undefined || slot.feedPosition === null))
    ctx.addIssue({ code: "custom", path: ["feedPosition"], message: "Для места в ленте укажите, после скольких постов его показывать" });
}

/** A slot as the domain takes it (saveAdSlot parses with it; other placements than the feed store no position): `pricePerDay` in kopecks. */
export const AdSlotInputSchema = AdSlotFields.extend({
  pricePerDay: z.number({ error: PRICE_MESSAGE }).int(PRICE_MESSAGE).min(AD_SLOT_PRICE_MIN, PRICE_MESSAGE).max(AD_SLOT_PRICE_MAX, PRICE_MESSAGE),
}).superRefine(needsFeedPosition);
export type AdSlotInput = z.input<typeof AdSlotInputSchema>;

/**
 * The slot form of /admin/ads/slots/new and /admin/ads/slots/{id}: the price typed in roubles. No
 * transforms beyond the price's, so Conform reads it in the browser too (getZodConstraint refuses them).
 */
export const AdSlotFormSchema = AdSlotFields.extend({
  intent: z.literal("slot-save"),
  pricePerDay: roublesField({ message: PRICE_MESSAGE, min: AD_SLOT_PRICE_MIN, max: AD_SLOT_PRICE_MAX }),
}).superRefine(needsFeedPosition);
