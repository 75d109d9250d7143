/** GET /api/auth/providers: the sign-in providers in Auth.js's shape (credentials for now). */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/providers";

export async function loader({ context }: Route.LoaderArgs) {
  const base = `${context.config.publicUrl}/api/auth`;
  return Response.json({
    credentials: {
      id: "credentials",
      name: "Email и пароль",
      type: "credentials",
      signinUrl: `${base}/signin/credentials`,
      callbackUrl: `${base}/callback/credentials`,
    },
  });
}
