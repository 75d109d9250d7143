/** GET /api/profile/{id}/posts?page&perPage: a member's posts, newest first; 404 for an unknown member. */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/posts";
import { listPosts } from "~/domain/posts/posts.server";
import { requireMember } from "~/domain/users/users.server";
import { apiData } from "~/lib/api.server";
import { getOptionalUser } from "~/lib/auth.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    // The member only, not their profile: its post count would count their posts a second time.
    const [member, reader] = await Promise.all([requireMember(context.db, Number(params.id)), getOptionalUser(context, request)]);
    return apiData(await listPosts(context.db, { authorId: member.id, reader }, parsePageParams(new URL(request.url).searchParams)));
  });
}
