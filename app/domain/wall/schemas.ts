/**
 * The wall forms, shared by the server (actions, domain) and the browser (Conform's inline
 * validation). Rules: docs/product/content.md#wall and docs/product/limits.md#content-limits (as a comment:
 * up to 10 000 characters). Messages are shown to users in Russian.
 */
import { z } from "zod";
import { formatCount } from "~/lib/format";

/** Longest wall entry, in characters (Unicode code points, as PostgreSQL's char_length counts). */
export const WALL_POST_MAX = 10_000;

/** Length in Unicode code points: an emoji counts once, as in the database check. */
export const charCount = (text: string) => [...text].length;

const WallBodySchema = z
  .string({ error: "Напишите текст записи" })
  .trim()
  .min(1, "Напишите текст записи")
  .refine((body) => charCount(body) <= WALL_POST_MAX, `Запись — не длиннее ${formatCount(WALL_POST_MAX)} символов`)
  .refine((body) => !body.includes("\0"), "Текст содержит недопустимый символ");

/** A new wall entry: Markdown `body`, 1-10 000 characters after trimming, without NUL. */
export const WallPostInputSchema = z.object({ body: WallBodySchema });
export type WallPostInput = z.infer<typeof WallPostInputSchema>;

const EntryIdSchema = z.coerce
  .number({ error: "Запись не найдена" })
  .int("Запись не найдена")
  .positive("Запись не найдена")
  .max(2_147_483_647, "Запись не найдена");

/**
 * What POST /profile/{id}/wall accepts: `intent` create (with `body`), delete, pin or unpin
 * (with `entryId`).
 */
export const WallActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("create"), body: WallBodySchema }),
    z.object({ intent: z.literal("delete"), entryId: EntryIdSchema }),
    z.object({ intent: z.literal("pin"), entryId: EntryIdSchema }),
    z.object({ intent: z.literal("unpin"), entryId: EntryIdSchema }),
  ],
  { error: "Неизвестное действие" },
);
export type WallAction = z.infer<typeof WallActionSchema>;
