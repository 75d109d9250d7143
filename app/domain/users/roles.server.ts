/** The moderator rule of roles.ts, asked of the database by member id (docs/product/accounts.md#roles-and-ranks). */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { users } from "~/db/schema";
import { isModeratorRole } from "./roles";

export { isModeratorRole };

/** True when member `userId` exists and moderates (isModeratorRole). Reads through `db` or a transaction. */
export async function isModeratorById(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return isModeratorRole(row?.role);
}
