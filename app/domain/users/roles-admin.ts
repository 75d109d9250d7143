/**
 * Who administers (docs/product/moderation.md#roles: "admins also on roles, money top-ups, site
 * settings, music, FAQ and ads"): users.role = 'admin'. Pure, like roles.ts, so pages share it.
 */
import { Forbidden } from "~/lib/errors";
import type { UserRole } from "./roles";

/** True for the admin role. */
export function isAdminRole(role: UserRole | null | undefined): boolean {
  return role === "admin";
}

/** Throws Forbidden (403, `not_admin`) unless `user` is an admin; a page shows the Russian message. */
export function assertAdmin(user: { role: UserRole } | null | undefined): void {
  if (!isAdminRole(user?.role)) throw new Forbidden("Страница доступна только администраторам", "not_admin");
}
