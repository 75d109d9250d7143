/**
 * POST /api/profile/payments/holds/{id}/release (issue 5 "Wallet"; docs/product/money.md#holds): the sender
 * of a held transfer releases it early, so the recipient can spend it. Empty or `{}` JSON body,
 * headers `X-CSRF-Token` and `Idempotency-Key`. Answers `{success: true, data: ReleaseResult}`
 * (a retry with the same key answers the same result). Errors: 401 `unauthorized`, 403
 * `csrf_invalid`, 400 `invalid_idempotency_key` / `invalid_body`, 404 `hold_not_found` (unknown,
 * or not the caller's own hold), 409 `hold_already_released` / `idempotency_key_reused`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import { z } from "zod";
import type { Route } from "./+types/hold-release";
import { releaseHold } from "~/domain/ledger/wallet.server";
import { runApiOperation } from "~/routes/_shared/api-operation.server";

const HoldReleaseBodySchema = z.object({});

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, HoldReleaseBodySchema, ({ user, key }) => releaseHold(args.context.db, user.id, Number(args.params.id), key));
}
