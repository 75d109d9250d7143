/**
 * What a refused money form gets back from its page's action (app/routes/_shared/money-form.server.ts
 * runFormAction): the form's `intent` ("" when it has none) and Conform's reply; a refusal also
 * carries `ok: false` and the stable `code` a fetcher (or any caller reading the `.data` answer)
 * branches on, as /api bodies do. Pure: pages use it to hand each form its own reply.
 */
import type { SubmissionResult } from "@conform-to/react";

export interface FormActionData {
  intent: string;
  result: SubmissionResult<string[]>;
  /** false on every refusal (bad input, a refused domain call); absent on a step that only shows something. */
  ok?: false;
  /** The refusal's stable code: `validation_failed` for bad input, else the domain error's (`report_not_found`, `not_moderator`…). */
  code?: string;
}

/** Conform's reply for the form `intent`, if the last refused submission was that form's. */
export function resultFor(actionData: FormActionData | null | undefined, intent: string): SubmissionResult<string[]> | undefined {
  return actionData?.intent === intent ? actionData.result : undefined;
}

/** Every message of a reply (form and field errors), for forms that are only a button. */
export function messagesOf(result: SubmissionResult<string[]> | undefined): string[] {
  return [...new Set(Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []))];
}
