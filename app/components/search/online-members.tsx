import type { UserRefDto } from "~/domain/users/users.server";

/** STUB: who is online, on the home page (the search helper fills it). */
export function OnlineMembers(_props: { members: UserRefDto[] }) {
  return null;
}
