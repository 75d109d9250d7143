/**
 * GET /api/profile/payments/deposit?page&perPage (docs/product/money.md#balance-logs):
 * `{success: true, data: Page<DepositLogEntry>}`, the signed-in member's deposit log, newest
 * first: type (deposit, withdrawal, compensation), signed amount in kopecks, counterparty (the
 * claimant of a compensation), time and the deposit after. 401 `unauthorized` for a visitor.
 * POST is deposit-funds.ts's action.
 */
// POST on the same URL locks money in the deposit (deposit-funds.ts).
export { action } from "./deposit-funds";
import type { Route } from "./+types/deposit";
import { listDepositLog } from "~/domain/ledger/deposits.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listDepositLog(context.db, user.id, parsePageParams(new URL(request.url).searchParams)));
  });
}
