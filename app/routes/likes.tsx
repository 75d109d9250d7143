/**
 * POST /likes: like or unlike a post, comment or wall post (issue 3 items 2 and 10).
 * The LikeButton form: without JavaScript it redirects back to `redirectTo` (to the button's anchor
 * when a page's shared like form sent it), and a refusal
 * shows the error page (403 own item, 404, 429); a fetcher (`via=fetcher`) gets the new
 * state or the refusal as data. A visitor is sent to sign in and then back.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/likes";
import { setLike, toggleLike } from "~/domain/likes/likes.server";
import { LikeFormSchema } from "~/domain/likes/schemas";
import { parseForm, runFormTarget } from "~/routes/_shared/form-target.server";

export async function loader() {
  return redirect("/");
}

/**
 * Nothing renders here: the action always redirects or answers data. Being a page (not a
 * resource route) lets a refusal without JavaScript show the site's error page (docs/product/routes.md#error-page).
 */
export default function FormTarget() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  return runFormTarget(
    context,
    request,
    (actor, form) => {
      const { target, id, liked } = parseForm(LikeFormSchema, form);
      return liked === undefined ? toggleLike(context.db, actor, target, id) : setLike(context.db, actor, target, id, liked);
    },
    // A page's shared like form (SharedLikeForms) names the page only: back to the button pressed.
    // (Called after `perform` succeeded, so the fields are valid.)
    (form) => `like-${String(form.get("target"))}-${String(form.get("id"))}`,
  );
}
