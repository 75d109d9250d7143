/**
 * The action shared by the profile's relation buttons (/profile/{id}/follow and /block):
 * `intent` picks the change (or toggles); without JavaScript the answer is a redirect back to
 * the profile with a toast, and a refusal is thrown for the route's ErrorBoundary (a returned
 * 4xx would still run the loader, which redirects); a fetcher gets `{ok: true, ...}` or the
 * refusal as data with its status. CSRF is checked before anything changes.
 */
import { data } from "react-router";
import type { z } from "zod";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import type { RelationRefusal } from "~/components/people/relation-refusal";
import { profileReturnPath } from "~/domain/people/return-path";
import type { UserRow } from "~/domain/users/users.server";
import { requireUser } from "./auth.server";
import type { AppContext } from "./context";
import { validateCsrf } from "./csrf.server";
import { AppError, pageData, ValidationFailed } from "./errors";
import { readForm } from "./forms.server";
import { redirectWithToast } from "./toast.server";

export async function runProfileToggle<I extends string, R, D extends object>(
  args: { request: Request; params: { id?: string }; context: AppContext },
  options: {
    schema: z.ZodType<{ intent: I }>;
    perform: (actor: UserRow, profileId: number, intent: I) => Promise<R>;
    /** What a fetcher gets on success (besides `ok: true`). */
    toData: (result: R) => D;
    /** The toast after a plain form post. */
    toastTitle: (result: R) => string;
  },
) {
  const { request, params, context } = args;
  const actor = await requireUser(context, request);
  const profileId = Number(params.id);
  const formData = await pageData(() => readForm(request));
  const js = sentByFetcher(formData);
  const back = profileReturnPath(profileId, formData.get("back"));
  try {
    const parsed = options.schema.safeParse({ intent: formData.get("intent") ?? undefined });
    if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]!.message, undefined, "invalid_intent");
    await validateCsrf(request);
    const result = await options.perform(actor, profileId, parsed.data.intent);
    if (js) return data({ ok: true as const, ...options.toData(result) });
    return redirectWithToast(back, { title: options.toastTitle(result) });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refusal: RelationRefusal = { ok: false, message: error.message, code: error.code, back };
    if (js) return data(refusal, { status: error.status });
    throw data(refusal, { status: error.status });
  }
}
