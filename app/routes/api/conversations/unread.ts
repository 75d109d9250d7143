/**
 * GET /api/profile/conversations/messages/unread (docs/product/conversations.md#unread-counts): `{success: true, data: UnreadRecordDto}`,
 * the signed-in member's group and personal conversations with unread messages and their exact
 * counts (`processed: true`). 401 `unauthorized` for a visitor.
 * A request signed in by cookie alone is answered before the router by server/member-calls.ts,
 * with the same data (../unread-calls.server.ts); this loader answers the rest (a Mini App's Authorization header, HEAD).
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/unread";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { unreadMessagesData } from "../unread-calls.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await unreadMessagesData(context.db, user.id));
  });
}
