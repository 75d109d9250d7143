/** GET /api/auth/csrf: `{csrfToken}` (docs/product/accounts.md#authjs-style-calls), setting the csrf cookie when it was missing. */
export { methodNotAllowed as action } from "~/lib/api.server";
import type { Route } from "./+types/csrf";
import { commitCsrfToken } from "~/lib/csrf.server";

export async function loader({ request }: Route.LoaderArgs) {
  const [csrfToken, cookie] = await commitCsrfToken(request);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (cookie) headers.append("Set-Cookie", cookie);
  return Response.json({ csrfToken }, { headers });
}
