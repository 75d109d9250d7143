/**
 * The conversation forms and JSON bodies, shared by the server (actions, /api, the domain) and
 * Conform in the browser. Rules: docs/product/conversations.md#messages and docs/product/limits.md#conversation-limits (a message holds up to
 * 4000 characters; a group name 1-100). Messages are shown to users in Russian.
 *
 * Lengths count Unicode code points, as PostgreSQL's char_length does in the database checks,
 * so the database never refuses what the form accepted.
 */
import { z } from "zod";
import { CHAT_LIMITS } from "./types";
import { formatCount } from "~/lib/format";

/** Length in characters as the database counts them (code points, not UTF-16 units). */
export const charCount = (text: string) => [...text].length;

/** A serial id from a form or JSON: a positive 32-bit integer; `message` names what was not found. */
function idSchema(message: string) {
  return z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);
}

/** A group's name: trimmed, 1-100 characters, no NUL. */
export const GroupNameSchema = z
  .string({ error: "Введите название беседы" })
  .trim()
  .min(1, "Введите название беседы")
  .refine((name) => !name.includes("\0"), "Название содержит недопустимый символ")
  .refine((name) => charCount(name) <= CHAT_LIMITS.groupNameLength, `Название беседы — не длиннее ${CHAT_LIMITS.groupNameLength} символов`);

/** The text of a message: trimmed, 1-4000 characters, no NUL (PostgreSQL text cannot hold it). */
export const MessageBodySchema = z
  .string({ error: "Напишите сообщение" })
  .trim()
  .min(1, "Напишите сообщение")
  .refine((body) => !body.includes("\0"), "Сообщение содержит недопустимый символ")
  .refine((body) => charCount(body) <= CHAT_LIMITS.messageLength, `Сообщение — не длиннее ${formatCount(CHAT_LIMITS.messageLength)} символов`);

/** The text beside a picture (issue 14): the same rules as MessageBodySchema, but it may be empty. */
export const MessageTextSchema = z
  .string()
  .trim()
  .refine((body) => !body.includes("\0"), "Сообщение содержит недопустимый символ")
  .refine((body) => charCount(body) <= CHAT_LIMITS.messageLength, `Сообщение — не длиннее ${formatCount(CHAT_LIMITS.messageLength)} символов`);

/** The Russian refusal of a message with neither text nor a picture. */
export const EMPTY_MESSAGE_TEXT = "Напишите сообщение или прикрепите изображение";

/** The largest picture a message may carry, in bytes (10 MB, as post pictures: docs/product/limits.md#uploads-and-images). */
export const MAX_MESSAGE_IMAGE_BYTES = 10 * 1024 * 1024;

const isFile = (value: unknown): value is File => typeof File !== "undefined" && value instanceof File;

/** A picture chosen in the composer's `image` field. */
const MessageImageSchema = z
  .custom<File>(isFile, "Выберите изображение")
  .refine((file) => file.size <= MAX_MESSAGE_IMAGE_BYTES, "Файл слишком большой: не больше 10 МБ");

/** A new group conversation. */
export const CreateGroupSchema = z.object({ name: GroupNameSchema });

/** Inviting a member to a group by username (the "@" in front is allowed). */
export const InviteSchema = z.object({
  username: z
    .string({ error: "Введите имя пользователя" })
    .trim()
    .transform((name) => name.replace(/^@/, ""))
    .pipe(z.string().min(1, "Введите имя пользователя").max(64, "Пользователь не найден")),
});

/** A new text message through /api (JSON or a form; pictures are sent from the conversations page). */
export const SendTextMessageSchema = z.object({
  body: MessageBodySchema,
  replyToId: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    idSchema("Сообщение, на которое вы отвечаете, не найдено").optional(),
  ),
});

/** The fields of a new message, before the rule that it needs text or a picture (SendMessageSchema). */
export const SendMessageFields = z.object({
  body: MessageTextSchema.optional(),
  // An empty file field (nothing chosen) is no picture.
  image: z.preprocess((value) => (isFile(value) && value.size === 0 ? undefined : value), MessageImageSchema.optional()),
  replyToId: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    idSchema("Сообщение, на которое вы отвечаете, не найдено").optional(),
  ),
});

/** A message needs text or a picture (issue 14): the refusal goes under the text field. */
export function requireMessageContent(value: { body?: string; image?: File }, ctx: z.RefinementCtx): void {
  if (!value.body && !value.image) ctx.addIssue({ code: "custom", path: ["body"], message: EMPTY_MESSAGE_TEXT });
}

/** A new message: text, a picture (field `image`) or both; `replyToId` quotes a message of the same conversation. Empty reply ids are ignored. */
export const SendMessageSchema = SendMessageFields.superRefine(requireMessageContent);

/** Editing one's own message: its id and the new text (same rules as a new message). */
export const EditMessageSchema = z.object({
  messageId: idSchema("Сообщение не найдено"),
  body: MessageBodySchema,
});

/** Deleting one's own message by id. */
export const DeleteMessageSchema = z.object({
  messageId: idSchema("Сообщение не найдено"),
});

/** The `before`/`limit` query of message history (GET …/messages); bad values are 400 `invalid_query`. */
export const HistoryQuerySchema = z.object({
  before: idSchema("Неверный параметр before").optional(),
  limit: z.coerce
    .number({ error: "Неверный параметр limit" })
    .int("Неверный параметр limit")
    .min(1, "Неверный параметр limit")
    .max(100, "Неверный параметр limit")
    .optional(),
});

export type CreateGroupInput = z.infer<typeof CreateGroupSchema>;
export type InviteInput = z.infer<typeof InviteSchema>;
export type SendMessageInput = z.infer<typeof SendMessageSchema>;
export type SendTextMessageInput = z.infer<typeof SendTextMessageSchema>;
export type EditMessageInput = z.infer<typeof EditMessageSchema>;
export type DeleteMessageInput = z.infer<typeof DeleteMessageSchema>;
