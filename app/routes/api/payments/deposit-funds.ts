/**
 * POST /api/profile/payments/deposit (issue 5 "Deposit"; docs/product/money.md#deposits): the
 * signed-in member locks `amount` kopecks of their available balance as their public deposit.
 * JSON `{amount: kopecks}`, headers `X-CSRF-Token` and `Idempotency-Key`. Answers
 * `{success: true, data: DepositResult}` (a retry with the same key answers the same result and
 * moves nothing). Errors: 401 `unauthorized`, 403 `csrf_invalid`, 400 `invalid_idempotency_key` /
 * `invalid_body` / `invalid_amount`, 422 `insufficient_funds`, 409 `idempotency_key_reused`.
 *
 * GET on the same URL is the deposit log (deposit.ts), so that route module re-exports this
 * `action`; this file is not registered in routes.ts on its own.
 */
import { z } from "zod";
import type { ActionFunctionArgs } from "react-router";
import { depositFunds } from "~/domain/ledger/deposits.server";
import { amountSchema, runApiOperation } from "~/routes/_shared/api-operation.server";

const DepositBodySchema = z.object({ amount: amountSchema });

export async function action(args: ActionFunctionArgs) {
  return runApiOperation(args, DepositBodySchema, ({ user, body, key }) => depositFunds(args.context.db, user.id, body.amount, key));
}
