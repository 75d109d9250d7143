/**
 * /account and every path under it (docs/product/routes.md#access-and-guards; docs/product/routes.md#access-and-guards): the
 * server is asked who the reader is. A visitor (or a session that no longer works) is sent to
 * `/`; a signed-in member to the same place under /profile, where the account pages live
 * (`/account/settings` → `/profile/settings`; a path /profile does not have answers 404 there).
 */
import { redirect } from "react-router";
import type { Route } from "./+types/account";
import { getOptionalUser } from "~/lib/auth.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(context, request);
  if (!user) throw redirect("/");
  const rest = params["*"] ?? "";
  const { search } = new URL(request.url);
  throw redirect(`/profile${rest ? `/${rest}` : ""}${search}`);
}
