/**
 * Who may moderate and who may administer (docs/product/moderation.md,
 * docs/product/moderation.md#roles): moderators act on content and members; admins also on
 * roles and site settings. The actor's role is read from the database at the time of the
 * action (a role revoked a moment ago no longer acts), through the transaction when given.
 */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { users } from "~/db/schema";
import { Forbidden } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { isModeratorRole } from "../users/roles";
import type { UserRow } from "../users/users.server";

/** The acting member when they moderate (moderator or admin). Throws Forbidden (`not_moderator`) otherwise. */
export async function requireModerator(db: Db | Tx, actorId: number): Promise<UserRow> {
  const actor = isValidId(actorId) ? (await db.select().from(users).where(eq(users.id, actorId)).limit(1))[0] : undefined;
  if (!actor || !isModeratorRole(actor.role)) throw new Forbidden("Это действие доступно только модераторам", "not_moderator");
  return actor;
}

/** The acting member when they are an admin. Throws Forbidden (`not_admin`) otherwise. */
export async function requireAdmin(db: Db | Tx, actorId: number): Promise<UserRow> {
  const actor = isValidId(actorId) ? (await db.select().from(users).where(eq(users.id, actorId)).limit(1))[0] : undefined;
  if (!actor || actor.role !== "admin") throw new Forbidden("Это действие доступно только администраторам", "not_admin");
  return actor;
}
