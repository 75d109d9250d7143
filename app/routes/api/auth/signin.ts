/**
 * POST /api/auth/signin/{provider} and /api/auth/callback/{provider} (docs/product/accounts.md#authjs-style-calls): form-encoded
 * csrfToken, callbackUrl, json, email, password. Success sets the session cookie and answers
 * `{url}` (json=true) or redirects to callbackUrl. Failures answer the /api error body with
 * `url` added for Auth.js clients: 403 `csrf_invalid`, 400 `captcha_required` / `captcha_failed` (when
 * reCAPTCHA is configured), 401 `invalid_credentials`, 429 `rate_limited` or `login_busy` (the slow-down full).
 */
import type { Route } from "./+types/signin";
import { authenticateWithForm } from "~/lib/auth.server";
import { isValidAuthJsCsrf } from "~/lib/csrf.server";
import { AppError, Forbidden, NotFound, toApiErrorResponse } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { checkRecaptcha } from "~/lib/recaptcha/check.server";
import { createUserSession, safeRedirect } from "~/lib/session.server";

export { methodNotAllowed as loader } from "~/lib/api.server";

export async function action({ request, params, context }: Route.ActionArgs) {
  if (params.provider !== "credentials") return toApiErrorResponse(new NotFound("Неизвестный способ входа", "unknown_provider"));
  try {
    const form = await readForm(request);
    const callbackUrl = safeRedirect(relativeTo(form.get("callbackUrl"), context.config.publicUrl), "/");
    if (!(await isValidAuthJsCsrf(request))) throw new Forbidden("Неверный CSRF-токен", "csrf_invalid");
    // The same reCAPTCHA as the sign-in page when it is configured (field recaptchaToken), so this call is no way around it.
    await checkRecaptcha(form, "login", context.clientIp);
    // The Auth.js form names the login field `email`, like our login form.
    const user = await authenticateWithForm(context, request);
    const cookie = await createUserSession(context.db, user.id, { ip: context.clientIp, userAgent: request.headers.get("User-Agent") });
    const headers = new Headers({ "Set-Cookie": cookie });
    if (form.get("json") === "true") return Response.json({ url: callbackUrl }, { headers });
    headers.set("Location", callbackUrl);
    return new Response(null, { status: 302, headers });
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_credentials") {
      return Response.json(
        { success: false, errors: { code: error.code, message: error.message }, url: "/auth/login?error=CredentialsSignin" },
        { status: 401 },
      );
    }
    return toApiErrorResponse(error);
  }
}

/** Auth.js sends an absolute callbackUrl; keep only its path when it points at this site. */
function relativeTo(value: FormDataEntryValue | null, publicUrl: string): string | null {
  if (typeof value !== "string" || value === "") return null;
  if (value.startsWith(publicUrl)) return value.slice(publicUrl.length) || "/";
  return value;
}
