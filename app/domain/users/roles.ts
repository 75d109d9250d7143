/**
 * Who moderates (docs/product/accounts.md#roles-and-ranks; issue 5 contract "Moderator = users.role in
 * ('moderator', 'admin')"): the one rule, pure so pages and the browser share it. Claims are
 * decided and deal disputes resolved by moderators; admins may do everything moderators do.
 */

/** A member's role as stored in users.role. */
export type UserRole = "member" | "moderator" | "admin";

/** True for a role that moderates: moderator or admin. */
export function isModeratorRole(role: UserRole | null | undefined): boolean {
  return role === "moderator" || role === "admin";
}
