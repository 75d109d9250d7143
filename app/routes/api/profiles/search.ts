/**
 * GET /api/profiles/search?q&page&perPage (docs/product/content.md#people-search): members by username, prefix matches
 * first, then similar names (pg_trgm). Public fields only; an empty q gives an empty page.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/search";
import { searchProfiles } from "~/domain/search/people.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const search = new URL(request.url).searchParams;
    return apiData(await searchProfiles(context.db, search.get("q") ?? "", parsePageParams(search)));
  });
}
