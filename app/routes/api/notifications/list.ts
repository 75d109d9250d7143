/**
 * GET /api/profile/notifications?page&perPage (docs/product/notifications.md#calls): `{success: true, data: Page<NotificationDto>}`,
 * the signed-in member's notifications, most recently updated first (10 a page, at most 50).
 * 401 `unauthorized` for a visitor.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/list";
import { listNotifications } from "~/domain/notifications/notifications.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listNotifications(context.db, user.id, parsePageParams(new URL(request.url).searchParams)));
  });
}
