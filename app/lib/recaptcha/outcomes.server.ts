/**
 * The last 50 reCAPTCHA outcomes of this process, in memory (issue 6: /admin/recaptcha-status
 * shows them). Lost on restart and separate per process, which is enough for a health check.
 */
import type { RecaptchaReason } from "./verify.server";

export interface RecaptchaOutcome {
  /** ISO time of the check. */
  at: string;
  action: string;
  score: number | null;
  success: boolean;
  reason: RecaptchaReason;
  errorCodes: string[];
  /** True when the form was let through although siteverify was unavailable (fail-open). */
  failedOpen: boolean;
}

/** How many outcomes are kept. */
export const OUTCOME_LIMIT = 50;

const outcomes: RecaptchaOutcome[] = [];

/** Adds an outcome, dropping the oldest beyond OUTCOME_LIMIT. */
export function recordRecaptchaOutcome(outcome: RecaptchaOutcome): void {
  outcomes.push(outcome);
  if (outcomes.length > OUTCOME_LIMIT) outcomes.splice(0, outcomes.length - OUTCOME_LIMIT);
}

/** The kept outcomes, newest first (a copy). */
export function recentRecaptchaOutcomes(): RecaptchaOutcome[] {
  return outcomes.slice().reverse();
}

/** Empties the buffer (tests). */
export function clearRecaptchaOutcomes(): void {
  outcomes.length = 0;
}
