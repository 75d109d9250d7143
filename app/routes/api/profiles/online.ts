/**
 * GET /api/profiles/online?page&perPage (docs/product/accounts.md#online-and-last-seen): members seen in the last 5 minutes
 * (docs/product/accounts.md#online-and-last-seen), most recent first, with their last-seen time. Public fields only.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/online";
import { listOnlineProfilesPage } from "~/domain/search/people.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => apiData(await listOnlineProfilesPage(context.db, parsePageParams(new URL(request.url).searchParams))));
}
