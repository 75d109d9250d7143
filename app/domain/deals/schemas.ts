/**
 * Input of the deal forms (Conform in the browser and on the server) and of /api/guarantor
 * (docs/product/deals.md#parties-and-terms; issue 5 item 7: amounts typed in roubles, stored in kopecks).
 * Pages take roubles («1 234,50»), the JSON API takes integer kopecks.
 */
import { z } from "zod";
import { roublesField } from "~/domain/ledger/money-schemas";
import { cleanTextRefinement } from "~/lib/text";
import { DEAL_MIN_AMOUNT } from "./fees";
import { DEAL_ACTIONS, DEAL_RESOLUTIONS } from "./types";

export const DESCRIPTION_MAX = 5_000;
export const NOTE_MAX = 2_000;
/** The latest deadline a deal may have, days from today. */
export const DEADLINE_MAX_DAYS = 365;

const AMOUNT_MESSAGE = "Сумма сделки — от 100 до 10 000 000 ₽";

const description = z
  .string({ error: "Опишите товар или услугу" })
  .trim()
  .min(1, "Опишите товар или услугу")
  .max(DESCRIPTION_MAX, `Описание — не длиннее ${DESCRIPTION_MAX} символов`)
  .refine(...cleanTextRefinement());

const note = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(NOTE_MAX, `Не длиннее ${NOTE_MAX} символов`)
    .refine(...cleanTextRefinement());

/**
 * A deadline: a calendar date «YYYY-MM-DD» (the end of that day, Moscow time) or, in the API,
 * an ISO date-time. Range checks (not in the past, at most a year ahead) are the domain's.
 */
export const DeadlineSchema = z.string({ error: "Укажите срок" }).transform((value, ctx) => {
  const text = value.trim();
  const date = /^\d{4}-\d{2}-\d{2}$/u.test(text) ? new Date(`${text}T23:59:59+03:00`) : /^\d{4}-\d{2}-\d{2}T/u.test(text) ? new Date(text) : null;
  if (!date || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: "custom", message: "Укажите срок датой" });
    return z.NEVER;
  }
  return date;
});

const counterparty = z
  .string({ error: "Укажите имя второй стороны" })
  .trim()
  .min(1, "Укажите имя второй стороны")
  .max(64, "Такого пользователя нет")
  .refine(...cleanTextRefinement());

const common = {
  role: z.enum(["buyer", "seller"], { error: "Выберите свою роль" }),
  description,
  deadline: DeadlineSchema,
  feePayer: z.enum(["buyer", "seller", "split"], { error: "Выберите, кто платит комиссию" }),
};

/** The «Новая сделка» page form: amount in roubles, hidden idempotency key. */
export const CreateDealFormSchema = z.object({
  counterparty,
  amount: roublesField({ message: AMOUNT_MESSAGE, min: DEAL_MIN_AMOUNT }),
  ...common,
  idempotencyKey: z.string({ error: "Форма устарела. Обновите страницу." }),
});

/** POST /api/guarantor/deals: amount in kopecks, counterparty a username or a member id. */
export const CreateDealApiSchema = z.object({
  counterparty: z.union([counterparty, z.number().int().positive()]),
  amount: z.number({ error: AMOUNT_MESSAGE }).int(AMOUNT_MESSAGE).min(DEAL_MIN_AMOUNT, AMOUNT_MESSAGE),
  ...common,
});

const actionEnum = z.enum(DEAL_ACTIONS, { error: "Неизвестное действие" });
const actionFields = {
  reason: note("Опишите причину спора").optional(),
  resolution: z.enum(DEAL_RESOLUTIONS, { error: "Выберите решение" }).optional(),
  note: note("Напишите пояснение к решению").optional(),
};

/**
 * An action button or the dispute/resolution form of the deal page (seller share in roubles).
 * The action travels as `intent`: a control named "action" would shadow the form's own property.
 */
export const DealActionFormSchema = z.object({
  intent: actionEnum,
  ...actionFields,
  sellerShare: roublesField({ message: "Укажите долю продавца в рублях" }).optional(),
  /**
   * "1" on the confirmation step's post of «Оплатить», «Подтвердить получение», «Согласиться на
   * отмену» and the resolution: move the money;
   * absent: check and show what would move (docs/product/interface.md#money-confirmations).
   */
  confirmed: z.literal("1").optional(),
  idempotencyKey: z.string({ error: "Форма устарела. Обновите страницу." }),
});

/**
 * POST /api/guarantor/deals/{id}/actions (seller share in kopecks). A missing or blank reason or
 * note is left to the domain, which refuses it with its own code (`reason_required`, `note_required`).
 */
export const DealActionApiSchema = z.object({
  action: actionEnum,
  reason: z
    .string()
    .max(NOTE_MAX, `Не длиннее ${NOTE_MAX} символов`)
    .refine(...cleanTextRefinement())
    .optional(),
  resolution: actionFields.resolution,
  note: z
    .string()
    .max(NOTE_MAX, `Не длиннее ${NOTE_MAX} символов`)
    .refine(...cleanTextRefinement())
    .optional(),
  sellerShare: z.number({ error: "Доля продавца — целое число копеек" }).int("Доля продавца — целое число копеек").optional(),
});
