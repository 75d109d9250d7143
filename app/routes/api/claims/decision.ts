/**
 * POST /api/claims/{id}/decision (issue 5; docs/product/claims.md#deciding): a moderator upholds
 * or rejects an open claim. JSON `{decision: "uphold" | "reject", note, compensation?: kopecks | null}`,
 * the `Idempotency-Key` header (a retry with it replays, moving no money twice) and the CSRF token
 * in `X-CSRF-Token`. 200 `{success: true, data: ClaimDto}`.
 * 401 `unauthorized`; 403 `csrf_invalid`, `not_moderator` (a party who is no moderator),
 * `party_cannot_decide`; 404 `claim_not_found` (members who may not see the claim too);
 * 400 `invalid_idempotency_key`, `invalid_body`, `invalid_input`, `invalid_text`,
 * `compensation_on_reject`, `compensation_above_claim`; 409 `claim_already_decided`,
 * `idempotency_key_reused`; 422 `insufficient_deposit`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import type { Route } from "./+types/decision";
import { decideClaim } from "~/domain/claims/claims.server";
import type { DecideClaimInput } from "~/domain/claims/schemas";
import { anyJsonObject, runApiOperation } from "~/routes/_shared/api-operation.server";

export async function action(args: Route.ActionArgs) {
  // decideClaim checks the caller's rights first, then validates the body (DecideClaimInputSchema).
  return runApiOperation(args, anyJsonObject, ({ user, body, key }) =>
    decideClaim(args.context.db, user.id, Number(args.params.id), body as unknown as DecideClaimInput, key),
  );
}
