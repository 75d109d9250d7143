/**
 * GET /api/profile/conversations/messages/unread (docs/product/conversations.md#unread-counts): `{success: true, data: UnreadRecordDto}`,
 * the signed-in member's group and personal conversations with unread messages and their exact
 * counts (`processed: true`). 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/unread";
import { getUnreadRecord } from "~/domain/conversations/messages.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await getUnreadRecord(context.db, user.id));
  });
}
