/**
 * POST /api/claims (issue 5; docs/product/claims.md#filing-a-claim): file a claim. JSON
 * `{accused: username | id, amount: kopecks, description, evidence?: string[], dealId?: number | null}`,
 * headers `X-CSRF-Token` and `Idempotency-Key` (a retry with the same key answers the same claim,
 * filing nothing more). 201 `{success: true, data: ClaimDto}`.
 * 401 `unauthorized`; 403 `csrf_invalid`; 400 `invalid_idempotency_key`, `invalid_body`,
 * `invalid_input` (with fields), `invalid_text` (NUL or a lone surrogate in a text),
 * `claim_against_self`, `deal_not_between_parties`; 404 `accused_not_found`; 409
 * `claim_already_open`, `idempotency_key_reused`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import type { Route } from "./+types/file";
import { fileClaim } from "~/domain/claims/claims.server";
import type { FileClaimInput } from "~/domain/claims/schemas";
import { anyJsonObject, runApiOperation } from "~/routes/_shared/api-operation.server";

export async function action(args: Route.ActionArgs) {
  // fileClaim validates every field itself (FileClaimInputSchema) and answers invalid_input / invalid_text.
  return runApiOperation(args, anyJsonObject, ({ user, body, key }) => fileClaim(args.context.db, user.id, body as unknown as FileClaimInput, key), {
    status: 201,
  });
}
