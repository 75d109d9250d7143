/**
 * The member as money and deal lists name them (the deals list, holds, the balance and deposit
 * logs): enough for the avatar with the scam overlay and for the trust card to open on hover
 * (docs/product/interface.md#trust-card). The columns are selected in the list's own query
 * (a joined, possibly aliased users table), so naming members costs no extra query.
 */
import type { users } from "~/db/schema";
import { ranksOf, type UserRefDto } from "./users.server";

/** A listed member: id, username, picture (or null) and ranks (SCAMMER among them). */
export type MemberBadgeDto = Pick<UserRefDto, "id" | "username" | "image" | "ranks">;

/** The columns of `table` (users, or an alias of it) that memberBadge maps; spread them into a select. */
export function memberBadgeColumns(table: typeof users) {
  return { id: table.id, username: table.username, image: table.image, role: table.role, verified: table.verified, scammer: table.scammer };
}

/** The selected columns of memberBadgeColumns as a MemberBadgeDto (ranks by ranksOf, docs/product/accounts.md#roles-and-ranks). */
export function memberBadge(row: {
  id: number;
  username: string;
  image: string | null;
  role: "member" | "moderator" | "admin";
  verified: boolean;
  scammer: boolean;
}): MemberBadgeDto {
  return { id: row.id, username: row.username, image: row.image, ranks: ranksOf(row) };
}
