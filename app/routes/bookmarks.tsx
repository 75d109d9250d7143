/**
 * POST /bookmarks: bookmark or un-bookmark a post (issue 3 item 5). The BookmarkButton form:
 * without JavaScript it redirects back to `redirectTo` (a refusal shows the error page);
 * a fetcher (`via=fetcher`) gets the new state or the refusal as data. A visitor is sent
 * to sign in and then back.
 */
import { data, redirect } from "react-router";
import { readForm } from "~/lib/forms.server";
import type { Route } from "./+types/bookmarks";
import type { BookmarkActionData } from "~/components/bookmarks/bookmark-button";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { setBookmark } from "~/domain/bookmarks/bookmarks.server";
import { BookmarkFormSchema } from "~/domain/bookmarks/schemas";
import { getOptionalUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData, ValidationFailed } from "~/lib/errors";
import { safeRedirect } from "~/lib/session.server";

export async function loader() {
  return redirect("/");
}

/**
 * Nothing renders here: the action always redirects or answers data. Being a page (not a
 * resource route) lets a refusal without JavaScript show the site's error page (SPEC.md 2).
 */
export default function FormTarget() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await pageData(() => readForm(request));
  const back = safeRedirect(form.get("redirectTo"), "/");
  const actor = await getOptionalUser(context, request);
  if (!actor) return redirect(`/auth/login?redirect=${encodeURIComponent(back)}`);

  const bookmark = async () => {
    await validateCsrf(request);
    const parsed = BookmarkFormSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Неверная форма", undefined, "invalid_input");
    return setBookmark(context.db, actor, parsed.data.postId, parsed.data.bookmarked);
  };

  if (!sentByFetcher(form)) {
    return pageData(async () => {
      await bookmark();
      return redirect(back);
    });
  }
  try {
    return { ok: true, ...(await bookmark()) } satisfies BookmarkActionData;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ ok: false, code: error.code, message: error.message } satisfies BookmarkActionData, { status: error.status });
  }
}
