/**
 * GET /api/profiles/blacklist?q&page&perPage (docs/product/claims.md#blacklist): public; `q`
 * searches the accused's username and display name and the reason (docs/product/claims.md#blacklist-search).
 * `{success: true, data: Page<BlacklistEntryDto>}` — upheld claims, newest first: the accused
 * (id, username, displayName, image, ranks), the moderator's reason, the claimed amount and
 * compensation in kopecks, the date (ISO) and the claim id. 10 per page by default, at most 50.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/blacklist";
import { listBlacklist } from "~/domain/claims/claims.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  return handleApi(async () => apiData(await listBlacklist(context.db, parsePageParams(search), search.get("q") ?? "")));
}
