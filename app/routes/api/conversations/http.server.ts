/**
 * What the conversation /api routes share: the history query (`before`, `limit`) and the body
 * of a new message (JSON or a form), each refused with a stable code instead of a 500.
 */
import { orInvalid } from "~/domain/conversations/access.server";
import { HistoryQuerySchema, SendTextMessageSchema, type SendTextMessageInput } from "~/domain/conversations/schemas";
import { ValidationFailed } from "~/lib/errors";

/**
 * `before` and `limit` of GET …/messages (limit 1-100, default 30 in the domain).
 * Throws ValidationFailed (`invalid_query`, 400) for a value that is not one.
 */
export function historyQuery(request: Request): { before?: number; limit?: number } {
  const search = new URL(request.url).searchParams;
  const raw = Object.fromEntries(["before", "limit"].flatMap((key) => (search.get(key) ? [[key, search.get(key)]] : [])));
  const parsed = HistoryQuerySchema.safeParse(raw);
  if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Неверные параметры запроса", undefined, "invalid_query");
  return parsed.data;
}

/**
 * The new message in a POST body: JSON `{body, replyToId?}` or form fields `body`, `replyToId`.
 * Throws ValidationFailed (`invalid_body` for a body that is neither; `invalid_input` with field errors).
 */
export async function readMessageInput(request: Request): Promise<SendTextMessageInput> {
  let raw: unknown;
  try {
    raw = (request.headers.get("Content-Type") ?? "").includes("application/json") ? await request.json() : Object.fromEntries(await request.formData());
  } catch {
    throw new ValidationFailed("Не удалось прочитать запрос", undefined, "invalid_body");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ValidationFailed("Не удалось прочитать запрос", undefined, "invalid_body");
  }
  return orInvalid(SendTextMessageSchema.safeParse(raw));
}
