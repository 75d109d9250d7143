/**
 * The one way a money page runs a form's action (issue 5 items 1 and 7): /profile/wallet,
 * /profile/deposit, /services/guarantor, /services/guarantor/deals/{id}, /claims/{id}.
 *
 * 1. The member must be signed in (requireUser: signed out → the sign-in page and back).
 * 2. The form is parsed with its Conform/Zod schema; bad input answers 400 with the reply, so the
 *    Russian messages show beside their fields and what was typed stays. A malformed hidden
 *    idempotency key adds «Форма устарела…» to the form's errors.
 * 3. CSRF is checked, then `perform` runs the domain call with the parsed values.
 * 4. Success: a redirect with a Russian toast (post/redirect/get; reloading never posts again), or,
 *    for a step that only shows something (a confirmation page), `show`'s data with status 200.
 * 5. A thrown AppError answers with its status (400, 403, 404, 409, 422…), `ok: false`, its
 *    stable `code`, and Conform's reply:
 *    the error's field errors beside the fields the form has (others join the form's errors),
 *    codes listed in `fieldFor` under that field, `idempotency_key_reused` and
 *    `invalid_idempotency_key` as «Форма устарела: обновите страницу и отправьте её ещё раз.».
 *    Refused operations change nothing (the domain rolls them back whole). Other errors are
 *    rethrown to the error page.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { z } from "zod";
import type { FormActionData } from "~/components/forms/action-data";
import type { UserRow } from "~/domain/users/users.server";
import { requireUser } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData, retryAfterHeaders } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { IDEMPOTENCY_FIELD, STALE_FORM_MESSAGE } from "~/lib/idempotency";
import { redirectWithToast, type FlashToast } from "~/lib/toast.server";

/** What `perform` answers on success: the toast (none: the page itself shows the change), and where to go (default: the page that posted). */
export interface FormActionDone {
  toast?: FlashToast;
  redirectTo?: string;
  /**
   * Answer this instead of redirecting (200, with the form's `intent` and an empty reply): a step
   * that shows something before the real post, such as a confirmation page that works without JavaScript.
   */
  show?: Record<string, unknown>;
}

const STALE_CODES = new Set(["idempotency_key_reused", "invalid_idempotency_key"]);

export interface FormActionOptions<S extends z.ZodType> {
  /** The page form's schema (Conform parses the posted FormData with it). */
  schema: S;
  /** Runs the domain call for the signed-in `actor`; throws AppError to refuse. */
  perform: (actor: UserRow, input: z.output<S>) => Promise<FormActionDone>;
  /**
   * Error codes that belong under a field, e.g. `{ recipient_not_found: "recipient" }`; with a
   * list, the first field the posted form has.
   */
  fieldFor?: Record<string, string | string[]>;
}

/**
 * Runs a money page's form action as described above. Returns the redirect (success) or
 * `data<FormActionData>` with the refusal's status, `ok: false` and a stable `code`
 * (`validation_failed` for bad input, `invalid_idempotency_key` for a malformed key, else the
 * AppError's), so a fetcher reading the `.data` answer branches as on an /api body. Throws the sign-in redirect for a signed-out
 * member, a 400 page for a body that is not a form, a 403 for a bad CSRF token.
 */
export async function runFormAction<S extends z.ZodType>(ctx: AppContext, request: Request, options: FormActionOptions<S>) {
  const actor = await requireUser(ctx, request);
  const form = await pageData(() => readForm(request));
  const intent = typeof form.get("intent") === "string" ? String(form.get("intent")) : "";
  const submission = parseWithZod(form, { schema: options.schema });
  if (submission.status !== "success") {
    const stale = submission.error?.[IDEMPOTENCY_FIELD] ? { formErrors: [STALE_FORM_MESSAGE] } : undefined;
    const code = stale ? "invalid_idempotency_key" : "validation_failed";
    return data<FormActionData>({ intent, ok: false, code, result: submission.reply(stale) }, { status: 400 });
  }
  try {
    await validateCsrf(request);
    const done = await options.perform(actor, submission.value as z.output<S>);
    if (done.show) return data<FormActionData & Record<string, unknown>>({ ...done.show, intent, result: submission.reply() });
    const here = new URL(request.url);
    const target = done.redirectTo ?? here.pathname + here.search;
    return done.toast ? redirectWithToast(target, done.toast) : redirect(target);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const posted = new Set(Object.keys(submission.payload));
    const errors = placeErrors(error, posted, options.fieldFor ?? {});
    return data<FormActionData>(
      { intent, ok: false, code: error.code, result: submission.reply(errors) },
      { status: error.status, headers: retryAfterHeaders(error) },
    );
  }
}

/** Where a refusal's messages show: beside the posted fields they name, else at the top of the form. */
function placeErrors(error: AppError, posted: Set<string>, fieldFor: Record<string, string | string[]>) {
  if (STALE_CODES.has(error.code)) return { formErrors: [STALE_FORM_MESSAGE] };
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  const target = [fieldFor[error.code] ?? []].flat().find((name) => posted.has(name));
  if (target) fieldErrors[target] = [error.message];
  else if (!error.fieldErrors) formErrors.push(error.message);
  for (const [name, messages] of Object.entries(error.fieldErrors ?? {})) {
    if (posted.has(name) && name !== IDEMPOTENCY_FIELD) fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
    else formErrors.push(...messages);
  }
  for (const name of Object.keys(fieldErrors)) fieldErrors[name] = [...new Set(fieldErrors[name])];
  return { formErrors: [...new Set(formErrors)], fieldErrors };
}
