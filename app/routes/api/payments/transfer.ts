/**
 * POST /api/profile/payments/transfer (issue 5 "Wallet"; docs/product/money.md#transfers-between-members): the signed-in member
 * sends money to another member, optionally held. JSON `{recipient: username | id, amount:
 * kopecks, holdHours?: 1…720, memo?: ≤ 500 characters}`, headers `X-CSRF-Token` and
 * `Idempotency-Key`. Answers `{success: true, data: TransferResult}` (a retry with the same key
 * answers the same result and moves nothing). Errors: 401 `unauthorized`, 403 `csrf_invalid`,
 * 400 `invalid_idempotency_key` / `invalid_body` / `invalid_amount` / `invalid_hold` /
 * `invalid_memo` / `invalid_recipient` / `invalid_text` (NUL or a lone surrogate) / `transfer_to_self`, 404 `recipient_not_found`,
 * 422 `insufficient_funds`, 409 `idempotency_key_reused`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import { z } from "zod";
import type { Route } from "./+types/transfer";
import { MAX_HOLD_HOURS, MAX_MEMO_LENGTH, transferToMember } from "~/domain/ledger/wallet.server";
import { amountSchema, runApiOperation } from "~/routes/_shared/api-operation.server";
import { cleanTextRefinement } from "~/lib/text";

const RECIPIENT_MESSAGE = "Укажите получателя: имя пользователя или id";
const HOLD_MESSAGE = `Срок удержания — целое число часов от 1 до ${MAX_HOLD_HOURS}`;
const MEMO_MESSAGE = `Комментарий к переводу — строка не длиннее ${MAX_MEMO_LENGTH} символов`;

const TransferBodySchema = z.object({
  recipient: z.union(
    [
      z
        .string()
        .trim()
        .min(1)
        .max(100)
        .refine(...cleanTextRefinement()),
      z.number().int().positive(),
    ],
    { error: RECIPIENT_MESSAGE },
  ),
  amount: amountSchema,
  holdHours: z.number({ error: HOLD_MESSAGE }).int(HOLD_MESSAGE).min(1, HOLD_MESSAGE).max(MAX_HOLD_HOURS, HOLD_MESSAGE).nullish(),
  memo: z
    .string({ error: MEMO_MESSAGE })
    .max(MAX_MEMO_LENGTH, MEMO_MESSAGE)
    .refine(...cleanTextRefinement())
    .nullish(),
});

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, TransferBodySchema, ({ user, body, key }) =>
    transferToMember(args.context.db, user.id, body.recipient, body.amount, { holdHours: body.holdHours, memo: body.memo }, key),
  );
}
