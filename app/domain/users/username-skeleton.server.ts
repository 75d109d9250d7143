/**
 * The confusable skeleton of a username (Unicode TS #39 §4): two names with the same skeleton look
 * alike («admin», «аdmin», «Admin» read as «adrnin»). The prototype mapping is Unicode's
 * confusables.txt as packaged by `unhomoglyph` (nodeca; data of Unicode 13); TS #39's algorithm is
 * NFD, map every character to its prototype, NFD again. Usernames are unique case-insensitively,
 * so the key applied is skeleton(lower(skeleton(name))): «Ivan» and «lvan» (l for I) collide too.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import unhomoglyph from "unhomoglyph";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { users } from "~/db/schema";
import { logger } from "~/lib/logger.server";

function skeleton(text: string): string {
  return unhomoglyph(text.normalize("NFD")).normalize("NFD");
}

/** The key `users.username_skeleton` stores for `username` (see the module comment). */
export function usernameSkeleton(username: string): string {
  return skeleton(skeleton(username).toLowerCase());
}

/**
 * Fills `users.username_skeleton` for members created before it existed (migration 0012) or
 * inserted without it, one by one; a member whose skeleton another member already holds keeps
 * none (logged: an older look-alike pair to review) and blocks nothing. Returns how many were filled.
 */
export async function backfillUsernameSkeletons(db: Db): Promise<number> {
  const missing = await db.select({ id: users.id, username: users.username }).from(users).where(isNull(users.usernameSkeleton)).orderBy(users.id);
  let filled = 0;
  for (const row of missing) {
    try {
      await db
        .update(users)
        .set({ usernameSkeleton: usernameSkeleton(row.username) })
        .where(and(eq(users.id, row.id), isNull(users.usernameSkeleton)));
      filled += 1;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      logger.warn({ area: "usernames", userId: row.id }, `username skeleton: ${row.username} (#${row.id}) looks like another member's name; left without one`);
    }
  }
  return filled;
}

/** True when some member's username looks like `username` (same skeleton), `exceptUserId` aside. */
export async function usernameLookAlikeTaken(db: Db, username: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.usernameSkeleton, usernameSkeleton(username)), exceptUserId === undefined ? sql`true` : sql`${users.id} <> ${exceptUserId}`))
    .limit(1);
  return Boolean(row);
}
