/**
 * POST /bookmarks: bookmark or un-bookmark a post (issue 3 item 5). The BookmarkButton form:
 * without JavaScript it redirects back to `redirectTo` (a refusal shows the error page);
 * a fetcher (`via=fetcher`) gets the new state or the refusal as data. A visitor is sent
 * to sign in and then back.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/bookmarks";
import { setBookmark } from "~/domain/bookmarks/bookmarks.server";
import { BookmarkFormSchema } from "~/domain/bookmarks/schemas";
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
  return runFormTarget(context, request, (actor, form) => {
    const { postId, bookmarked } = parseForm(BookmarkFormSchema, form);
    return setBookmark(context.db, actor, postId, bookmarked);
  });
}
