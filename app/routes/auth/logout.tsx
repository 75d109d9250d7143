/** POST /auth/logout: the header's «Выйти» form. Deletes the session row and clears the cookie. */
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { destroyUserSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  return pageData(async () => {
    await validateCsrf(request);
    const cookie = await destroyUserSession(context.db, request);
    return redirectWithToast("/", { title: "Вы вышли из аккаунта" }, [cookie]);
  });
}
