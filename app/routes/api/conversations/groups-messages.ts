/**
 * GET /api/profile/conversations/groups/messages?page&perPage (docs/product/conversations.md#calls): `{success: true, data: Page<MessageDto>}`,
 * the latest message of each of the signed-in member's groups, newest first. 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/groups-messages";
import { listLatestMessages } from "~/domain/conversations/messages.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listLatestMessages(context.db, user.id, "group", parsePageParams(new URL(request.url).searchParams)));
  });
}
