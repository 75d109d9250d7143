/**
 * Site settings of /admin/settings (docs/product/moderation.md#settings): registration open or closed, the site rules (Markdown,
 * shown on /faq) and the main-page background (app/domain/settings). Admins only; every change
 * is written with its audit entry in one transaction, and setting a value it already has
 * changes nothing (and logs nothing).
 */
import { eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { settings } from "~/db/schema";
import { ValidationFailed } from "~/lib/errors";
import { renderMarkdown } from "~/lib/markdown.server";
import { assertCleanText } from "~/lib/text";
import { MAIN_PAGE_BACKGROUND_KEY } from "../settings/settings.server";
import { requireAdmin } from "./access.server";
import { writeAudit } from "./audit.server";
import { parseReason } from "./input";
import { REGISTRATION_OPEN_KEY } from "./registration.server";

export { assertRegistrationOpen, isRegistrationOpen, REGISTRATION_CLOSED_MESSAGE, REGISTRATION_OPEN_KEY } from "./registration.server";

export { BackgroundSchema, getMainPageBackground, setMainPageBackground } from "../settings/settings.server";

export const SITE_RULES_KEY = "siteRules";
/** The longest site rules (characters of Markdown). */
export const SITE_RULES_MAX = 20_000;

export interface SiteSettingsDto {
  registrationOpen: boolean;
  /** The rules' Markdown source ("" when none) and their sanitised HTML. */
  rules: { markdown: string; html: string; updatedAt: string | null };
  mainPageBackground: string | null;
}

async function readSettings(db: Db | Tx, keys: string[]) {
  const rows = await db.select().from(settings).where(inArray(settings.key, keys));
  return new Map(rows.map((row) => [row.key, row]));
}

/** The site rules as Markdown and sanitised HTML (for /faq); empty when none were written. */
export async function getSiteRules(db: Db): Promise<SiteSettingsDto["rules"]> {
  const row = (await readSettings(db, [SITE_RULES_KEY])).get(SITE_RULES_KEY);
  const markdown = typeof row?.value === "string" ? row.value : "";
  return { markdown, html: markdown ? renderMarkdown(markdown) : "", updatedAt: row ? row.updatedAt.toISOString() : null };
}

/** Everything /admin/settings shows, for admin `actorId`. Throws Forbidden (`not_admin`). */
export async function getSiteSettings(db: Db, actorId: number): Promise<SiteSettingsDto> {
  await requireAdmin(db, actorId);
  const map = await readSettings(db, [REGISTRATION_OPEN_KEY, SITE_RULES_KEY, MAIN_PAGE_BACKGROUND_KEY]);
  const rules = map.get(SITE_RULES_KEY);
  const markdown = typeof rules?.value === "string" ? rules.value : "";
  const background = map.get(MAIN_PAGE_BACKGROUND_KEY)?.value;
  return {
    registrationOpen: map.get(REGISTRATION_OPEN_KEY)?.value !== false,
    rules: { markdown, html: markdown ? renderMarkdown(markdown) : "", updatedAt: rules ? rules.updatedAt.toISOString() : null },
    mainPageBackground: typeof background === "string" && background !== "" ? background : null,
  };
}

async function writeSetting(tx: Db | Tx, key: string, value: unknown): Promise<void> {
  await tx
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

/**
 * Admin `actorId` opens (`open` true) or closes registration, with an optional reason. Returns
 * whether it changed. Throws Forbidden (`not_admin`), ValidationFailed (`invalid_input` for a
 * non-boolean, `invalid_reason`).
 */
export async function setRegistrationOpen(
  db: Db,
  actorId: number,
  open: boolean,
  input: { reason?: string | null } = {},
): Promise<{ registrationOpen: boolean; changed: boolean }> {
  if (typeof open !== "boolean") throw new ValidationFailed("Выберите: открыта или закрыта", { registrationOpen: ["Выберите значение"] }, "invalid_input");
  const reason = parseReason(input.reason, { required: false });
  return db.transaction(async (tx) => {
    const actor = await requireAdmin(tx, actorId);
    const [row] = await tx.select().from(settings).where(eq(settings.key, REGISTRATION_OPEN_KEY)).for("update");
    const before = row?.value !== false;
    if (before === open) return { registrationOpen: open, changed: false };
    await writeSetting(tx, REGISTRATION_OPEN_KEY, open);
    await writeAudit(tx, {
      actorId: actor.id,
      action: "settings.registration",
      targetType: "setting",
      reason,
      details: { key: REGISTRATION_OPEN_KEY, from: before, to: open },
    });
    return { registrationOpen: open, changed: true };
  });
}

/**
 * Admin `actorId` replaces the site rules with `markdown` (≤ 20 000 characters; "" removes
 * them). Returns the rules as /faq will show them. Throws Forbidden (`not_admin`),
 * ValidationFailed (`invalid_rules`, `invalid_text`).
 */
export async function setSiteRules(db: Db, actorId: number, markdown: string): Promise<SiteSettingsDto["rules"]> {
  if (typeof markdown !== "string") throw new ValidationFailed("Правила должны быть текстом", { rules: ["Правила должны быть текстом"] }, "invalid_rules");
  assertCleanText("rules", markdown);
  const text = markdown.replace(/\r\n/g, "\n").trim();
  if (text.length > SITE_RULES_MAX) {
    const message = `Правила — не длиннее ${SITE_RULES_MAX.toLocaleString("ru-RU")} символов`;
    throw new ValidationFailed(message, { rules: [message] }, "invalid_rules");
  }
  await db.transaction(async (tx) => {
    const actor = await requireAdmin(tx, actorId);
    const [row] = await tx.select().from(settings).where(eq(settings.key, SITE_RULES_KEY)).for("update");
    const before = typeof row?.value === "string" ? row.value : "";
    if (row && before === text) return;
    await writeSetting(tx, SITE_RULES_KEY, text);
    await writeAudit(tx, {
      actorId: actor.id,
      action: "settings.rules",
      targetType: "setting",
      details: { key: SITE_RULES_KEY, fromLength: before.length, toLength: text.length },
    });
  });
  return getSiteRules(db);
}
