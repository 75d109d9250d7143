/**
 * /api/guarantor/deals (docs/product/deals.md#pages-and-calls).
 * GET ?page&perPage: `{success: true, data: Page<DealDto>}`, the caller's deals as buyer or
 * seller, most recently changed first.
 * POST JSON `{counterparty, role: "buyer"|"seller", amount (kopecks, ≥ 10 000), description,
 * deadline ("YYYY-MM-DD" or ISO date-time), feePayer: "buyer"|"seller"|"split"}` with an
 * `Idempotency-Key` header and the CSRF token in `X-CSRF-Token`: `{success: true, data: DealDto}`
 * (a retry with the same key answers the same deal). 400 `invalid_input`, `invalid_text` (NUL or
 * a lone surrogate in a text), `invalid_amount`,
 * `invalid_deadline`, `deal_with_self`, `invalid_body`, `invalid_idempotency_key`; 403 `csrf_invalid`;
 * 404 `counterparty_not_found`; 409 `idempotency_key_reused`.
 * Both: 401 `unauthorized` for a visitor.
 */
import type { Route } from "./+types/list";
import { createDeal, listDealsOf } from "~/domain/deals/deals.server";
import { CreateDealApiSchema } from "~/domain/deals/schemas";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";
import { runApiOperation } from "~/routes/_shared/api-operation.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listDealsOf(context.db, user.id, parsePageParams(new URL(request.url).searchParams)));
  });
}

export async function action(args: Route.ActionArgs) {
  return runApiOperation(args, CreateDealApiSchema, ({ user, body, key }) => createDeal(args.context.db, user.id, body, key));
}
