/**
 * POST /api/profile/email/change/confirm (issue 6 "Email"): JSON `{token}` — the token of the
 * link mailed to the new address — changes the member's email to that address (verified).
 * Sign-in is not required: the single-use token proves the request (the link may be opened
 * on a device where the member is not signed in). CSRF as other JSON POSTs: the `X-CSRF-Token`
 * header (GET /api/auth/csrf hands it out) matching the `csrf` cookie.
 * Answers `{success: true, data: {email}}`. Errors: 403 `csrf_invalid`, 400 `invalid_body`
 * (not a JSON object with a string token), 400 `token_invalid` / `token_used` / `token_expired`,
 * 409 `email_taken` (another member took the address meanwhile; the token stays usable).
 */
export { methodNotAllowed as loader } from "~/lib/api.server";
import type { Route } from "./+types/email-change-confirm";
import { confirmEmailChange } from "~/domain/accounts/email-flows.server";
import { apiData } from "~/lib/api.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi, ValidationFailed } from "~/lib/errors";

export async function action({ request, context }: Route.ActionArgs) {
  return handleApi(async () => {
    await validateCsrfHeaderOrForm(request);
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      body = null;
    }
    const token = body && typeof body === "object" && "token" in body ? (body as { token: unknown }).token : undefined;
    if (typeof token !== "string") throw new ValidationFailed('Передайте JSON вида {"token": "…"}', undefined, "invalid_body");
    const { email } = await confirmEmailChange(context.db, token);
    return apiData({ email });
  });
}
