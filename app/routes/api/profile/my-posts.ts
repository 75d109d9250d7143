/** GET /api/profile/posts?page&perPage: the signed-in member's posts; 401 `unauthorized` for a visitor. */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/my-posts";
import { listPosts } from "~/domain/posts/posts.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listPosts(context.db, { authorId: user.id, reader: user }, parsePageParams(new URL(request.url).searchParams)));
  });
}
