/** GET /api/auth/me: `{ok: true, user}` with the current user of docs/product/accounts.md#current-user, or 401 `{ok: false, user: null}`. */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/me";
import { toCurrentUserDto } from "~/domain/users/users.server";
import { getSessionUser } from "~/lib/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.db, request);
  if (!user) return Response.json({ ok: false, user: null }, { status: 401 });
  return Response.json({ ok: true, user: toCurrentUserDto(user) }, { headers: { "Cache-Control": "no-store" } });
}
