/**
 * GET /api/profile/conversation/personal/user/{userId} (docs/product/conversations.md#calls): `{success: true, data: {id}}`, the
 * personal conversation of the signed-in member with member `userId`, created (empty) when they
 * have none yet; both members get the same id. 401 `unauthorized` for a visitor; 400
 * `cannot_message_self`; 404 `profile_not_found`; 403 `blocked` when either blocked the other.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/personal-with-user";
import { getOrCreatePersonalConversation } from "~/domain/conversations/conversations.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await getOrCreatePersonalConversation(context.db, user.id, Number(params.userId)));
  });
}
