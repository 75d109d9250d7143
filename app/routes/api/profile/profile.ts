/** GET /api/profile/{id}: a member's public profile; 404 `profile_not_found` for an unknown id. */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/profile";
import { getProfile } from "~/domain/users/users.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, context }: Route.LoaderArgs) {
  return handleApi(async () => apiData(await getProfile(context.db, Number(params.id))));
}
