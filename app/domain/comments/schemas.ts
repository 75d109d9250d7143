/**
 * The comment forms, shared by the server (the /post/{id}/comments action, the domain) and
 * Conform in the browser. Rules: docs/product/limits.md#content-limits (a comment holds up to 10 000 characters).
 *
 * Lengths count Unicode code points (`[...s].length`), as PostgreSQL's char_length does in
 * the `comments_body_length` check, so an emoji counts once and the database never refuses
 * what the form accepted.
 */
import { z } from "zod";
import { formatCount } from "~/lib/format";

export const COMMENT_MAX = 10_000;

/** A serial id from a form: a positive 32-bit integer. */
const IdSchema = z.coerce
  .number({ error: "Комментарий не найден" })
  .int("Комментарий не найден")
  .positive("Комментарий не найден")
  .max(2_147_483_647, "Комментарий не найден");

/** Length in characters as the database counts them (code points, not UTF-16 units). */
export function charCount(text: string): number {
  return [...text].length;
}

/** The text of a comment: trimmed, 1 to 10 000 characters, no NUL (PostgreSQL text cannot hold it). */
export const CommentBodySchema = z
  .string({ error: "Напишите комментарий" })
  .trim()
  .min(1, "Напишите комментарий")
  .refine((text) => !text.includes("\u0000"), "Недопустимый символ в тексте")
  .refine((text) => charCount(text) <= COMMENT_MAX, `Комментарий — не длиннее ${formatCount(COMMENT_MAX)} символов`);

/** A new comment; `parentId` makes it a reply to that comment. */
export const CreateCommentSchema = z.object({
  intent: z.literal("create"),
  body: CommentBodySchema,
  parentId: IdSchema.optional(),
});

export const EditCommentSchema = z.object({
  intent: z.literal("edit"),
  commentId: IdSchema,
  body: CommentBodySchema,
});

export const DeleteCommentSchema = z.object({
  intent: z.literal("delete"),
  commentId: IdSchema,
});

/** Every form that posts to /post/{id}/comments, told apart by its hidden `intent` field. */
export const CommentActionSchema = z.discriminatedUnion("intent", [CreateCommentSchema, EditCommentSchema, DeleteCommentSchema], {
  error: "Неизвестное действие с комментарием",
});

export type CreateCommentInput = z.infer<typeof CreateCommentSchema>;
export type CommentAction = z.infer<typeof CommentActionSchema>;
