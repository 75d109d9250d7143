/**
 * The forms of /profile/wallet and /profile/deposit (issue 5 items 2, 3 and 7), shared by
 * Conform in the browser and the pages' actions. Amounts are typed in roubles («1 234,50») and
 * become integer kopecks here; every form carries the idempotency key its page's loader made,
 * so a resubmitted form replays instead of moving money twice. Messages are Russian.
 */
import { z } from "zod";
import { isValidAmount, MAX_HOLD_HOURS, MAX_MEMO_LENGTH, parseRoubles } from "~/domain/ledger/money";
import { IdempotencyKeySchema } from "~/lib/idempotency";

const HOLD_MESSAGE = `Срок удержания — целое число часов от 1 до ${MAX_HOLD_HOURS}`;
const AMOUNT_MESSAGE = "Сумма — от 0,01 до 10 000 000 ₽, например 1 234,50";

/** A rouble amount typed by a person, as kopecks. */
export const RoublesSchema = z.string({ error: "Введите сумму" }).transform((value, ctx) => {
  const kopecks = parseRoubles(value);
  if (kopecks === null || !isValidAmount(kopecks)) {
    ctx.addIssue({ code: "custom", message: AMOUNT_MESSAGE });
    return z.NEVER;
  }
  return kopecks;
});

/**
 * "1" on the confirmation step's post: move the money; absent: check everything and show the
 * confirmation, moving nothing (docs/product/interface.md#money-confirmations).
 */
export const ConfirmedSchema = z.literal("1").optional();

const id = (message: string) => z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

const username = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .transform((value) => value.replace(/^@/u, ""))
    .pipe(z.string().min(1, message).max(100, "Слишком длинное имя пользователя"));

export const TransferSchema = z.object({
  intent: z.literal("transfer"),
  key: IdempotencyKeySchema,
  recipient: username("Укажите имя получателя"),
  amount: RoublesSchema,
  holdHours: z.coerce.number({ error: HOLD_MESSAGE }).int(HOLD_MESSAGE).min(1, HOLD_MESSAGE).max(MAX_HOLD_HOURS, HOLD_MESSAGE).optional(),
  memo: z
    .string()
    .trim()
    .max(MAX_MEMO_LENGTH, `Комментарий — не длиннее ${MAX_MEMO_LENGTH} символов`)
    .refine((memo) => !memo.includes("\u0000"), "Недопустимый символ в комментарии")
    .optional(),
  confirmed: ConfirmedSchema,
});

export const ReleaseHoldSchema = z.object({
  intent: z.literal("release"),
  key: IdempotencyKeySchema,
  holdId: id("Перевод с удержанием не найден"),
  confirmed: ConfirmedSchema,
});

export const TopUpSchema = z.object({
  intent: z.literal("topup"),
  key: IdempotencyKeySchema,
  member: username("Укажите имя участника"),
  amount: RoublesSchema,
  confirmed: ConfirmedSchema,
});

export const WalletActionSchema = z.discriminatedUnion("intent", [TransferSchema, ReleaseHoldSchema, TopUpSchema]);
export type WalletIntent = z.infer<typeof WalletActionSchema>["intent"];

export const DepositSchema = z.object({ intent: z.literal("deposit"), key: IdempotencyKeySchema, amount: RoublesSchema, confirmed: ConfirmedSchema });
export const WithdrawSchema = z.object({ intent: z.literal("withdraw"), key: IdempotencyKeySchema, amount: RoublesSchema, confirmed: ConfirmedSchema });
export const CancelWithdrawalSchema = z.object({
  intent: z.literal("cancel"),
  key: IdempotencyKeySchema,
  withdrawalId: id("Заявка на вывод не найдена"),
  confirmed: ConfirmedSchema,
});

export const DepositActionSchema = z.discriminatedUnion("intent", [DepositSchema, WithdrawSchema, CancelWithdrawalSchema]);
export type DepositIntent = z.infer<typeof DepositActionSchema>["intent"];
