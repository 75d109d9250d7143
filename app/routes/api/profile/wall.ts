/**
 * GET /api/profile/{id}/wall?page&perPage (docs/product/content.md#wall): entries on a member's wall, newest
 * first, 10 per page (at most 50). The pinned entry is left out here and answered by
 * /wall/pinned, so a client shows it once, on top. `liked` is the caller's own like.
 * 404 `profile_not_found` for an unknown member.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/wall";
import { listWallPosts } from "~/domain/wall/wall.server";
import { apiData } from "~/lib/api.server";
import { getOptionalUser } from "~/lib/auth.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const viewer = await getOptionalUser(context, request);
    const page = parsePageParams(new URL(request.url).searchParams);
    return apiData(await listWallPosts(context.db, viewer, Number(params.id), page));
  });
}
