/**
 * GET /api/profile/conversations/groups?page&perPage (docs/product/conversations.md#calls): `{success: true, data: Page<ConversationDto>}`,
 * the signed-in member's group conversations (without the public one), newest activity first,
 * each with its last message and exact unread count; 10 a page, at most 50. 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/groups";
import { listConversations } from "~/domain/conversations/conversations.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listConversations(context.db, user.id, "group", parsePageParams(new URL(request.url).searchParams)));
  });
}
