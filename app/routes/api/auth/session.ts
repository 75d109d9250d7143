/**
 * GET /api/auth/session: Auth.js's session object `{user: {id, name, email, image}, expires}`,
 * or `{}` when signed out (docs/product/accounts.md#authjs-style-calls: a response that is not a non-empty object means no session).
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/session";
import { getCurrentSession } from "~/lib/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await getCurrentSession(context.db, request, context);
  const headers = { "Cache-Control": "no-store" };
  if (!session) return Response.json({}, { headers });
  const { user, expiresAt } = session;
  return Response.json({ user: { id: user.id, name: user.username, email: user.email, image: user.image }, expires: expiresAt.toISOString() }, { headers });
}
