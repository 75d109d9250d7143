/**
 * POST /likes: like or unlike a post, comment or wall post (issue 3 items 2 and 10).
 * The LikeButton form: without JavaScript it redirects back to `redirectTo`, and a refusal
 * shows the error page (403 own item, 404, 429); a fetcher (`via=fetcher`) gets the new
 * state or the refusal as data. A visitor is sent to sign in and then back.
 */
import { data, redirect } from "react-router";
import { readForm } from "~/lib/forms.server";
import type { Route } from "./+types/likes";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { type LikeActionData } from "~/components/likes/like-button";
import { setLike, toggleLike } from "~/domain/likes/likes.server";
import { LikeFormSchema } from "~/domain/likes/schemas";
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

  const like = async () => {
    await validateCsrf(request);
    const parsed = LikeFormSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Неверная форма", undefined, "invalid_input");
    const { target, id, liked } = parsed.data;
    return liked === undefined ? toggleLike(context.db, actor, target, id) : setLike(context.db, actor, target, id, liked);
  };

  if (!sentByFetcher(form)) {
    return pageData(async () => {
      await like();
      return redirect(back);
    });
  }
  try {
    return { ok: true, ...(await like()) } satisfies LikeActionData;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ ok: false, code: error.code, message: error.message } satisfies LikeActionData, { status: error.status });
  }
}
