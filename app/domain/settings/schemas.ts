/**
 * The form schema of the main-page background (docs/product/routes.md#main-page-background),
 * shared with the browser (/admin/settings) — kept apart from settings.server.ts, which the
 * client bundle may not import.
 */
import { z } from "zod";

/** A same-site path (/images/…) or an https URL; empty clears the background. */
export const BackgroundSchema = z.object({
  value: z
    .string()
    .trim()
    .max(2000, "Слишком длинная ссылка")
    .refine((v) => v === "" || /^\/(?!\/)[^\s]*$/.test(v) || /^https:\/\/[^\s]+$/.test(v), "Укажите ссылку https://… или путь /images/…"),
});
