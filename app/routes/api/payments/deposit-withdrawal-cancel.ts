/**
 * POST /api/profile/payments/deposit/withdrawal/{id}/cancel (issue 5 "Deposit";
 * docs/product/money.md#deposits): the signed-in member cancels their pending deposit withdrawal; the money stays in
 * the deposit. Empty or `{}` JSON body, headers `X-CSRF-Token` and `Idempotency-Key`. Answers
 * `{success: true, data: {id, cancelled: true}}` (a retry with the same key answers the same).
 * Errors: 401 `unauthorized`, 403 `csrf_invalid`, 400 `invalid_idempotency_key` / `invalid_body`,
 * 404 `withdrawal_not_found` (unknown or another member's), 409 `withdrawal_closed` /
 * `idempotency_key_reused`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import { z } from "zod";
import type { Route } from "./+types/deposit-withdrawal-cancel";
import { cancelDepositWithdrawal } from "~/domain/ledger/deposits.server";
import { runApiOperation } from "~/routes/_shared/api-operation.server";

const CancelBodySchema = z.object({});

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, CancelBodySchema, ({ user, key }) => cancelDepositWithdrawal(args.context.db, user.id, Number(args.params.id), key));
}
