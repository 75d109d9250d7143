/**
 * People search and the online list (issue 3). STUB: the search helper implements it.
 */
import type { Db } from "~/db/client.server";
import type { UserRefDto } from "../users/users.server";

/** Members seen in the last 5 minutes (PRODUCT.md People), most recent first. */
export async function listOnlineProfiles(_db: Db, _limit: number): Promise<UserRefDto[]> {
  return [];
}
