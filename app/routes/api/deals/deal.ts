/**
 * GET /api/guarantor/deals/{id} (docs/product/deals.md#pages-and-calls): `{success: true, data:
 * DealDetailDto}` — the deal, its transition log and the caller's allowed actions. Parties and
 * moderators only: 401 `unauthorized` for a visitor, 404 `deal_not_found` for anyone else or an
 * unknown id.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/deal";
import { getDeal } from "~/domain/deals/deals.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await getDeal(context.db, user.id, Number(params.id)));
  });
}
