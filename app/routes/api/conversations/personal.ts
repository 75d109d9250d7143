/**
 * GET /api/profile/conversation/personal/{id} (docs/product/conversations.md#calls): `{success: true, data: ConversationDetailDto}`,
 * a personal conversation of the signed-in member with both members.
 * 401 `unauthorized` for a visitor; 404 `conversation_not_found` for anyone else's or an unknown id.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/personal";
import { getConversation } from "~/domain/conversations/conversations.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await getConversation(context.db, user.id, "personal", Number(params.id)));
  });
}
