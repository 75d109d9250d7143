/**
 * GET /api/auth/session: Auth.js's session object `{user: {id, name, email, image}, expires}`,
 * or `{}` when signed out (SPEC.md 5: a response that is not a non-empty object means no session).
 */
import type { Route } from "./+types/session";
import { getSessionUser, SESSION_TTL_MS } from "~/lib/session.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(context.db, request);
  const headers = { "Cache-Control": "no-store" };
  if (!user) return Response.json({}, { headers });
  return Response.json(
    {
      user: { id: user.id, name: user.username, email: user.email, image: user.image },
      expires: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
    },
    { headers },
  );
}
