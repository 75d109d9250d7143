/**
 * The post form, shared by the server and Conform in the browser.
 * Rules: docs/product/limits.md#content-limits (title 3-200 chars, body up to 50 000) and docs/product/content.md#posts (categories, kind).
 */
import { z } from "zod";
import { CATEGORIES } from "./categories";
import { formatCount } from "~/lib/format";

export const TITLE_MIN = 3;
export const TITLE_MAX = 200;
export const BODY_MAX = 50_000;

/** PostgreSQL text cannot hold U+0000; refuse it with a message instead of failing the insert. */
const noNul = (value: string) => !value.includes("\u0000");
const NUL_MESSAGE = "Недопустимый символ в тексте";

export const PostInputSchema = z.object({
  title: z
    .string({ error: "Введите заголовок" })
    .trim()
    .min(TITLE_MIN, `Заголовок — не короче ${TITLE_MIN} символов`)
    .max(TITLE_MAX, `Заголовок — не длиннее ${TITLE_MAX} символов`)
    .refine(noNul, NUL_MESSAGE),
  body: z
    .string({ error: "Напишите текст поста" })
    .trim()
    .min(1, "Напишите текст поста")
    .max(BODY_MAX, `Текст — не длиннее ${formatCount(BODY_MAX)} символов`)
    .refine(noNul, NUL_MESSAGE),
  categoryId: z.coerce
    .number({ error: "Выберите категорию" })
    .int("Выберите категорию")
    .refine((id) => CATEGORIES.some((c) => c.id === id), "Выберите категорию"),
  kind: z.enum(["post", "article"], { error: "Выберите тип публикации" }).default("post"),
});
export type PostInput = z.infer<typeof PostInputSchema>;
