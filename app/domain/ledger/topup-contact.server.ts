/**
 * Who tops a member up (docs/product/money.md#top-ups): money enters the site only through an
 * admin's top-up, so an empty wallet points at an admin to write to.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { toUserRefDto, type UserRefDto } from "~/domain/users/users.server";

/**
 * The admin a member asks for a top-up: the earliest registered admin who is not `viewerId`
 * (the site's own account comes first), or null when there is none. One query.
 */
export async function findTopUpAdmin(db: Db, viewerId: number): Promise<UserRefDto | null> {
  const [admin] = await db
    .select()
    .from(users)
    .where(and(eq(users.role, "admin"), ne(users.id, viewerId)))
    .orderBy(asc(users.id))
    .limit(1);
  return admin ? toUserRefDto(admin) : null;
}
