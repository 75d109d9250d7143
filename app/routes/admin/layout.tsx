/**
 * The admin area's frame (docs/product/moderation.md#admin-pages): every /admin page sits in it.
 * A visitor is sent to sign in; a member who is neither moderator nor admin gets the 403 page
 * («Раздел доступен только модераторам и администраторам»). The navigation shows the admin-only
 * pages (settings, stats, music, FAQ) to admins only. Each child page checks access again
 * through its domain call, since loaders run side by side.
 */
import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { AdminNav } from "~/components/admin/admin-nav";
import { isModeratorRole } from "~/domain/users/roles";
import { requireUser } from "~/lib/auth.server";
import { Forbidden, pageData } from "~/lib/errors";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    if (!isModeratorRole(user.role)) throw new Forbidden("Раздел доступен только модераторам и администраторам", "not_moderator");
    return { isAdmin: user.role === "admin" };
  });
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[13rem_minmax(0,1fr)]" data-testid="admin-area">
      <AdminNav isAdmin={loaderData.isAdmin} />
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}
