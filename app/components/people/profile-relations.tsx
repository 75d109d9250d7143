import type { ProfileDto } from "~/domain/users/users.server";
import type { ProfileRelations as Relations } from "~/domain/people/relations.server";

/** STUB: follow and block buttons, follower and following counts (the wall helper fills it). */
export function ProfileRelations(_props: { profile: ProfileDto; relations: Relations; viewerId: number | null }) {
  return null;
}
