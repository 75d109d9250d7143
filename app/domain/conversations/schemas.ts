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
  .refine((body) => charCount(body) <= CHAT_LIMITS.messageLength, `Сообщение — не длиннее ${CHAT_LIMITS.messageLength.toLocaleString("ru-RU")} символов`);

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

/** A new message; `replyToId` quotes a message of the same conversation. Empty reply ids are ignored. */
export const SendMessageSchema = z.object({
  body: MessageBodySchema,
  replyToId: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    idSchema("Сообщение, на которое вы отвечаете, не найдено").optional(),
  ),
});

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
export type EditMessageInput = z.infer<typeof EditMessageSchema>;
export type DeleteMessageInput = z.infer<typeof DeleteMessageSchema>;
