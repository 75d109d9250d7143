/**
 * GET /api/profile/conversations/personal?page&perPage (docs/product/conversations.md#calls): `{success: true, data: Page<ConversationDto>}`,
 * the signed-in member's personal conversations that hold a message, newest activity first, each
 * with the other member, the last message and the exact unread count. 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/personal-list";
import { listConversations } from "~/domain/conversations/conversations.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listConversations(context.db, user.id, "personal", parsePageParams(new URL(request.url).searchParams)));
  });
}
