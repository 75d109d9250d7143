/**
 * POST /api/admin/payments/topup (issue 5 "Wallet": admin top-up through the development payment
 * provider; docs/product/money.md#top-ups): JSON `{memberId, amount: kopecks}`, headers
 * `X-CSRF-Token` and `Idempotency-Key`. Admins only. Answers `{success: true, data: TopUpResult}`
 * (a retry with the same key answers the same result and credits nothing more). Errors: 401
 * `unauthorized`, 403 `not_admin` / `csrf_invalid`, 400 `invalid_idempotency_key` /
 * `invalid_body` / `invalid_member` / `invalid_amount`, 404 `member_not_found`, 409
 * `idempotency_key_reused`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import { z } from "zod";
import type { Route } from "./+types/topup";
import { topUp } from "~/domain/ledger/wallet.server";
import { amountSchema, runApiOperation } from "~/routes/_shared/api-operation.server";

const MEMBER_MESSAGE = "Укажите id пользователя — целое положительное число";

const TopUpBodySchema = z.object({
  memberId: z.number({ error: MEMBER_MESSAGE }).int(MEMBER_MESSAGE).positive(MEMBER_MESSAGE).max(2_147_483_647, MEMBER_MESSAGE),
  amount: amountSchema,
});

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, TopUpBodySchema, ({ user, body, key }) => topUp(args.context.db, user.id, body.memberId, body.amount, key), { adminOnly: true });
}
