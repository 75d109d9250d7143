/** GET /api/auth/me: `{ok: true, user}` with the current user of docs/product/accounts.md#current-user, or 401 `{ok: false, user: null}`. */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/me";
import { toCurrentUserDto } from "~/domain/users/users.server";
import { getCurrentSession } from "~/lib/session.server";

/** `user.apiToken` is this session's realtime token (each device has its own, docs/decisions/0017). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await getCurrentSession(context.db, request, context);
  if (!session) return Response.json({ ok: false, user: null }, { status: 401 });
  return Response.json({ ok: true, user: toCurrentUserDto(session.user, session.apiToken) }, { headers: { "Cache-Control": "no-store" } });
}
