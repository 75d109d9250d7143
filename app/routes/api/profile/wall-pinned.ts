/**
 * GET /api/profile/{id}/wall/pinned (docs/product/content.md#wall): `{success: true, data: entry | null}`, the
 * entry the member pinned on their wall. 404 `profile_not_found` for an unknown member.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/wall-pinned";
import { getPinnedWallPost } from "~/domain/wall/wall.server";
import { apiData } from "~/lib/api.server";
import { getOptionalUser } from "~/lib/auth.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const viewer = await getOptionalUser(context, request);
    return apiData(await getPinnedWallPost(context.db, viewer, Number(params.id)));
  });
}
