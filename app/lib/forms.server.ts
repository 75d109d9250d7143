/**
 * Turns a refused form submission into the action's answer: Conform's reply (field and
 * form errors, shown inline with or without JavaScript) with the error's HTTP status.
 */
import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { AppError, retryAfterHeaders, ValidationFailed } from "./errors";

/**
 * The request's form fields, read from a clone (so CSRF checks and remix-auth can read the
 * body too). Throws ValidationFailed (`invalid_body`, 400) when the body is not a form.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.clone().formData();
  } catch {
    throw new ValidationFailed("Не удалось прочитать форму. Обновите страницу и попробуйте ещё раз.", undefined, "invalid_body");
  }
}

interface Replyable {
  reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]>;
}

/**
 * For a thrown AppError, the submission's reply carrying its message and field errors,
 * with its status (400, 403, 409, 429… — a 429 also says when to retry in Retry-After). Anything
 * else is rethrown to the error page.
 * `hideFields` keeps secrets such as passwords out of the echoed form.
 */
export function replyWithError(submission: Replyable, error: unknown, hideFields: string[] = []) {
  if (!(error instanceof AppError)) throw error;
  const result = submission.reply({
    formErrors: error.fieldErrors ? [] : [error.message],
    fieldErrors: error.fieldErrors,
    hideFields,
  });
  return data({ result }, { status: error.status, headers: retryAfterHeaders(error) });
}
