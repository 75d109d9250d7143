/**
 * The action of a small form target such as /likes or /bookmarks (a button that changes one
 * thing and goes back to the page it sat on):
 * - a visitor is sent to sign in, then back (`redirectTo`, kept same-site by safeRedirect);
 * - a plain form post (no JavaScript) runs `perform` and redirects back; a refusal shows the
 *   error page with its status and Russian message;
 * - a fetcher (FetcherMarker) gets `{ok: true, ...result}`, or `{ok: false, code, message}`
 *   with the refusal's status, so the button can roll its optimistic state back.
 * The CSRF token is checked before `perform` runs.
 */
import { data, redirect } from "react-router";
import type { z } from "zod";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import type { UserRow } from "~/domain/users/users.server";
import { getOptionalUser } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData, ValidationFailed } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/session.server";

export async function runFormTarget<T extends object>(
  ctx: AppContext,
  request: Request,
  perform: (actor: UserRow, form: FormData) => Promise<T>,
  /** The anchor a plain form returns to when `redirectTo` names none (a form shared by a page's buttons), or null; asked after `perform` succeeded. */
  anchorOf?: (form: FormData) => string | null,
) {
  const form = await pageData(() => readForm(request));
  const redirectTo = safeRedirect(form.get("redirectTo"), "/");
  const actor = await getOptionalUser(ctx, request);
  if (!actor) return redirect(`/auth/login?redirect=${encodeURIComponent(redirectTo)}`);
  const run = async () => {
    await validateCsrf(request);
    return perform(actor, form);
  };
  if (!sentByFetcher(form)) {
    return pageData(async () => {
      await run();
      // Only a plain form comes back: a fetcher stays on its page.
      const anchor = redirectTo.includes("#") ? null : (anchorOf?.(form) ?? null);
      return redirect(anchor ? `${redirectTo}#${anchor}` : redirectTo);
    });
  }
  try {
    return { ok: true as const, ...(await run()) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ ok: false as const, code: error.code, message: error.message }, { status: error.status });
  }
}

/** `form` parsed by `schema`; throws ValidationFailed (`invalid_input`, 400) with the first Russian message. */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData): z.infer<S> {
  const parsed = schema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Неверная форма", undefined, "invalid_input");
  return parsed.data;
}
