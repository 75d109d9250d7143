/**
 * What a refused wallet or deposit form gets back from its page's action
 * (app/routes/profile/wallet-actions.server.ts): the form's intent and Conform's reply.
 */
import type { SubmissionResult } from "@conform-to/react";

export interface MoneyActionData {
  intent: string;
  result: SubmissionResult<string[]>;
}

/** Conform's reply for the form `intent`, if the last refused submission was that form's. */
export function resultFor(actionData: MoneyActionData | undefined, intent: string): SubmissionResult<string[]> | undefined {
  return actionData?.intent === intent ? actionData.result : undefined;
}

/** Every message of a reply (form and field errors), for forms that are only a button. */
export function messagesOf(result: SubmissionResult<string[]> | undefined): string[] {
  return Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []);
}
