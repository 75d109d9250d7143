/**
 * GET /api/profile/notifications/unread (docs/product/notifications.md#unread-counting):
 * `{success: true, data: {count}}`, the signed-in member's unread notifications (chat messages
 * are counted by /api/profile/conversations/messages/unread). 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/unread";
import { countUnreadNotifications } from "~/domain/notifications/notifications.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData({ count: await countUnreadNotifications(context.db, user.id) });
  });
}
