/**
 * Whether registration is open (docs/product/moderation.md#settings). Kept apart from
 * settings.server.ts, which writes audit entries: registration (app/domain/users) only reads
 * the flag, and must not import the audit log, which itself maps users.
 */
import { eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { settings } from "~/db/schema";
import { Forbidden } from "~/lib/errors";

/** The settings key of the flag; a missing row means open. */
export const REGISTRATION_OPEN_KEY = "registrationOpen";

/** The Russian message of a registration refused while it is closed. */
export const REGISTRATION_CLOSED_MESSAGE = "Регистрация новых участников сейчас закрыта. Загляните позже.";

/** Whether new members may register (default: open). One query. */
export async function isRegistrationOpen(db: Db | Tx): Promise<boolean> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, REGISTRATION_OPEN_KEY));
  return row?.value !== false;
}

/**
 * Throws Forbidden (`registration_closed`, REGISTRATION_CLOSED_MESSAGE) while registration is
 * closed. Registration and the first Telegram sign-in (which creates a member) call it.
 */
export async function assertRegistrationOpen(db: Db | Tx): Promise<void> {
  if (!(await isRegistrationOpen(db))) throw new Forbidden(REGISTRATION_CLOSED_MESSAGE, "registration_closed");
}
