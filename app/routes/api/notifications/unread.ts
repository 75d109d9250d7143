/**
 * GET /api/profile/notifications/unread (docs/product/notifications.md#unread-counting):
 * `{success: true, data: {count}}`, the signed-in member's unread notifications (chat messages
 * are counted by /api/profile/conversations/messages/unread). 401 `unauthorized` for a visitor.
 * A request signed in by cookie alone is answered before the router by server/member-calls.ts,
 * with the same data (../unread-calls.server.ts); this loader answers the rest (a Mini App's Authorization header, HEAD).
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/unread";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { unreadNotificationsData } from "../unread-calls.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await unreadNotificationsData(context.db, user.id));
  });
}
