/**
 * POST /api/guarantor/deals/{id}/actions (docs/product/deals.md#actions): JSON `{action,
 * reason?, resolution?, sellerShare? (kopecks), note?}` with an `Idempotency-Key` header and the
 * CSRF token in `X-CSRF-Token`: `{success: true, data: DealDto}` after the transition (a retry
 * with the same key replays it). Actions: accept, cancel, fund, deliver, confirm,
 * request_cancel, agree_cancel, dispute (reason), resolve (moderators: resolution, note,
 * sellerShare for split).
 * 401 `unauthorized`; 403 `csrf_invalid`, `not_a_party`, `not_moderator`, `own_deal`,
 * `creator_cannot_accept`, `buyer_only`, `seller_only`; 404 `deal_not_found` (also for anyone
 * but the parties and moderators); 409 `deal_state_changed`, `cancel_already_requested`,
 * `no_cancel_request`, `idempotency_key_reused`; 400 `invalid_input`, `invalid_text`, `reason_required`,
 * `note_required`, `resolution_required`, `invalid_seller_share`, `invalid_body`, `invalid_idempotency_key`;
 * 422 `insufficient_funds`.
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import type { Route } from "./+types/actions";
import { applyDealAction } from "~/domain/deals/deals.server";
import { DealActionApiSchema } from "~/domain/deals/schemas";
import { runApiOperation } from "~/routes/_shared/api-operation.server";

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, DealActionApiSchema, ({ user, body: { action, ...input }, key }) =>
    applyDealAction(args.context.db, user.id, Number(args.params.id), action, input, key),
  );
}
