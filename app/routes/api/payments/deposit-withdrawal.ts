/**
 * POST /api/profile/payments/deposit/withdrawal (issue 5 "Deposit"; docs/product/money.md#deposits:
 * withdrawal pending 14 days, blocked while a claim is open): the signed-in member asks to take
 * `amount` kopecks of their deposit back. JSON `{amount: kopecks}`, headers `X-CSRF-Token` and
 * `Idempotency-Key`. Answers `{success: true, data: PendingWithdrawal}` (a retry with the same key
 * answers the same request). Errors: 401 `unauthorized`, 403 `csrf_invalid`, 400
 * `invalid_idempotency_key` / `invalid_body` / `invalid_amount`, 409 `claim_open` /
 * `withdrawal_pending` / `idempotency_key_reused`, 422 `insufficient_deposit`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import { z } from "zod";
import type { Route } from "./+types/deposit-withdrawal";
import { requestDepositWithdrawal } from "~/domain/ledger/deposits.server";
import { amountSchema, runApiOperation } from "~/routes/_shared/api-operation.server";

const WithdrawalBodySchema = z.object({ amount: amountSchema });

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, WithdrawalBodySchema, ({ user, body, key }) => requestDepositWithdrawal(args.context.db, user.id, body.amount, key));
}
