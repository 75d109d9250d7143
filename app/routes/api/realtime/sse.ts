/**
 * GET /api/sse?type=group|personal&id={id}&api-token={token}, or ?type=notifications&api-token=…
 * (docs/product/realtime.md#server-sent-events): server-sent events carrying the frames `{channel, data}` of one
 * conversation, or of the member's notifications. 400 `bad_query`, 401 `invalid_token`,
 * 404 `not_found` (not a member, or no such conversation), 429 `too_many_connections`. See app/lib/realtime/sse.server.ts.
 * The Node server answers GET beside the router (server/event-stream.ts, decision 0025), so this
 * loader serves only a host that runs the router without server/app.ts; other methods get 405 here.
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/sse";
import { handleApi } from "~/lib/errors";
import { openEventStream } from "~/lib/realtime/sse.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(() => openEventStream(context.db, new URL(request.url).searchParams, request.signal, { clientAddress: context.clientIp }));
}
