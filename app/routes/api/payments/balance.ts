/**
 * GET /api/profile/payments/balance?page&perPage (docs/product/money.md#balance-logs): `{success: true,
 * data: Page<BalanceLogEntry>}`, the signed-in member's balance log, newest first: type, signed
 * amount in kopecks, counterparty, time and the balance after. 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/balance";
import { listBalanceLog } from "~/domain/ledger/balances.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listBalanceLog(context.db, user.id, parsePageParams(new URL(request.url).searchParams)));
  });
}
