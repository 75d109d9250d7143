/** GET /api/settings/mainPageBackground: `{data: {value}}` with the image URL or null (docs/product/routes.md#main-page-background). */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/main-page-background";
import { getMainPageBackground } from "~/domain/settings/settings.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";

export async function loader({ context }: Route.LoaderArgs) {
  return handleApi(async () => apiData({ value: await getMainPageBackground(context.db) }));
}
