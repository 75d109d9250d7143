/**
 * Site-wide settings set by admins. The main-page background (docs/product/routes.md#main-page-background) is an image
 * URL kept under the key `mainPageBackground`; the settings of issue 10 (registration open or
 * closed, the site rules) live in app/domain/moderation/settings.server.ts beside it.
 */
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { settings } from "~/db/schema";
import { Forbidden } from "~/lib/errors";
import { writeAudit } from "../moderation/audit.server";
import type { UserRow } from "../users/users.server";

export const MAIN_PAGE_BACKGROUND_KEY = "mainPageBackground";

export { BackgroundSchema } from "./schemas";

/** The main-page background image URL, or null when none is set. */
export async function getMainPageBackground(db: Db): Promise<string | null> {
  const [row] = await db.select().from(settings).where(eq(settings.key, MAIN_PAGE_BACKGROUND_KEY)).limit(1);
  return typeof row?.value === "string" && row.value !== "" ? row.value : null;
}

/**
 * Sets (or with "" clears) the background, with its audit entry in the same transaction
 * (docs/product/moderation.md#settings); setting the value it already has changes nothing.
 * `value` must already be checked by BackgroundSchema. Throws Forbidden (`admin_only`) unless
 * `actor` is an admin.
 */
export async function setMainPageBackground(db: Db, actor: UserRow, value: string): Promise<void> {
  if (actor.role !== "admin") throw new Forbidden("Фон главной меняет только администратор", "admin_only");
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(settings).where(eq(settings.key, MAIN_PAGE_BACKGROUND_KEY)).for("update");
    const before = typeof current?.value === "string" ? current.value : "";
    if (current && before === value) return;
    await tx
      .insert(settings)
      .values({ key: MAIN_PAGE_BACKGROUND_KEY, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "settings.background",
      targetType: "setting",
      details: { key: MAIN_PAGE_BACKGROUND_KEY, from: before, to: value },
    });
  });
}
