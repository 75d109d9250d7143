/**
 * POST /settings/color-scheme: the header's scheme toggle (docs/product/interface.md#dark-mode).
 * Stores `scheme` (system, light or dark; anything else counts as system) in the `color-scheme`
 * cookie and redirects back to `redirectTo` (a local path) or the page it came from. Works without
 * JavaScript; with it the toggle posts through a fetcher and the root data picks up the new class.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/color-scheme";
import { backTo, colorSchemeCookie, parseColorScheme } from "~/lib/color-scheme";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";

export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  return pageData(async () => {
    await validateCsrf(request);
    const form = await request.formData();
    const scheme = parseColorScheme(form.get("scheme"));
    const secure = context.config.publicUrl.startsWith("https://");
    const origin = new URL(request.url).origin;
    return redirect(backTo(form.get("redirectTo"), request.headers.get("Referer"), origin), { headers: { "Set-Cookie": colorSchemeCookie(scheme, secure) } });
  });
}
