/**
 * POST /api/music/{id}/plays — the player counts a play once a track has played 10 seconds (or
 * to its end when shorter): one per listener and track per 30 minutes (recordPlay). A member is
 * `user:{id}`, a visitor a salted hash of their address, so anonymous plays count without
 * keeping addresses. Needs the `X-CSRF-Token` header. Answers `{success, data: {counted, playCount}}`;
 * errors 403 `csrf_invalid`, 404 `track_not_found`.
 */
import { createHash } from "node:crypto";
import type { Route } from "./+types/plays";
import { recordPlay } from "~/domain/music/tracks.server";
import { apiData } from "~/lib/api.server";
import { getOptionalUser } from "~/lib/auth.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi } from "~/lib/errors";

export { methodNotAllowed as loader } from "~/lib/api.server";

export async function action({ request, params, context }: Route.ActionArgs) {
  return handleApi(async () => {
    await validateCsrfHeaderOrForm(request);
    const user = await getOptionalUser(context, request);
    const listener = user
      ? `user:${user.id}`
      : `ip:${createHash("sha256").update(`${context.config.sessionSecret}:${context.clientIp}`).digest("hex").slice(0, 24)}`;
    return apiData(await recordPlay(context.db, Number(params.id), listener));
  });
}
