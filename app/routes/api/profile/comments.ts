/**
 * GET /api/profile/{id}/comments?page&perPage (docs/product/content.md#comments): a member's comments that are not
 * deleted, newest first, each with its post's id and title; 10 a page by default, at most 50.
 * Public, like the posts they were written under. 404 `profile_not_found` for an unknown member.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/comments";
import { listMemberComments } from "~/domain/comments/comments.server";
import { apiData } from "~/lib/api.server";
import { handleApi } from "~/lib/errors";
import { parsePageParams } from "~/lib/pagination";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => apiData(await listMemberComments(context.db, Number(params.id), parsePageParams(new URL(request.url).searchParams))));
}
