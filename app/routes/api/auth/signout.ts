/**
 * POST /api/auth/signout (docs/product/accounts.md#authjs-style-calls): needs the csrfToken field; without a valid one
 * 400 «Could not fetch CSRF Token for signing out». Deletes the session row and clears the cookie.
 */
import type { Route } from "./+types/signout";
import { isValidAuthJsCsrf } from "~/lib/csrf.server";
import { ValidationFailed, toApiErrorResponse } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { destroyUserSession, safeRedirect } from "~/lib/session.server";

export { methodNotAllowed as loader } from "~/lib/api.server";

export const SIGNOUT_CSRF_MESSAGE = "Could not fetch CSRF Token for signing out";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request).catch(() => null);
  if (!form || !(await isValidAuthJsCsrf(request))) {
    return toApiErrorResponse(new ValidationFailed(SIGNOUT_CSRF_MESSAGE, undefined, "csrf_missing"));
  }
  const cookie = await destroyUserSession(context.db, request);
  const url = safeRedirect(form.get("callbackUrl"), "/");
  const headers = new Headers({ "Set-Cookie": cookie });
  if (form.get("json") === "true") return Response.json({ url }, { headers });
  headers.set("Location", url);
  return new Response(null, { status: 302, headers });
}
