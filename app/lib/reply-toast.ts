/**
 * The toast a browser shows for a JSON reply (docs/product/routes.md#reply-envelope, docs/product/routes.md#reply-envelope):
 * a failed reply is titled «Ошибка!» and shows the errors' message, else the first value of the
 * errors object, else «Не удалось получить информацию от {path}»; a success is titled «Успех!».
 */

/** The title of a success toast. */
export const SUCCESS_TITLE = "Успех!";
/** The title of a failure toast. */
export const FAILURE_TITLE = "Ошибка!";

/** The fallback text when a reply says nothing usable (docs/product/routes.md#reply-envelope). */
export function noInformationText(path: string): string {
  return `Не удалось получить информацию от ${path}`;
}

/**
 * The text of a failure toast for `body`, the parsed reply of `path` (anything: it may be null,
 * an envelope `{success: false, errors: {message}}`, `{errors: {field: "text"}}`, or garbage).
 */
export function failureText(path: string, body: unknown): string {
  const errors = isRecord(body) ? body.errors : undefined;
  if (isRecord(errors)) {
    if (typeof errors.message === "string" && errors.message.trim()) return errors.message;
    for (const value of Object.values(errors)) {
      if (typeof value === "string" && value.trim()) return value;
      if (Array.isArray(value) && typeof value[0] === "string" && value[0].trim()) return value[0];
    }
  }
  return noInformationText(path);
}

/** Whether `body` is a successful reply envelope (`{success: true}` or the Auth.js-style `{ok: true}`). */
export function isSuccessReply(body: unknown): boolean {
  return isRecord(body) && (body.success === true || body.ok === true);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
