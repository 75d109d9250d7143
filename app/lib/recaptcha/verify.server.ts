/**
 * Server-side verification of a reCAPTCHA v3 token with Google's siteverify endpoint
 * (issue 6 "Captcha"; https://developers.google.com/recaptcha/docs/v3). Pure apart from the
 * injected `fetch`, so tests stub the answer and never call Google.
 */

/** Why a token was accepted or refused. "unavailable": siteverify did not answer usably (network, timeout, HTTP error, bad JSON). */
export type RecaptchaReason = "ok" | "missing_token" | "rejected" | "low_score" | "wrong_action" | "unavailable";

export interface RecaptchaVerdict {
  /** True only when Google confirmed the token, the action matched and the score reached the minimum. */
  success: boolean;
  reason: RecaptchaReason;
  /** Google's score 0…1 (1 = very likely a human), null when none came back. */
  score: number | null;
  /** The action Google reports for the token, null when none came back. */
  action: string | null;
  /** Google's `error-codes`, or our own "timeout" / "network-error" / "http-<status>" / "bad-response". */
  errorCodes: string[];
}

export interface VerifyOptions {
  token: string | null | undefined;
  /** The action the page asked for ("login", "register"); a token minted for another is refused. */
  expectedAction: string;
  secret: string;
  /** Lowest accepted score, 0…1. */
  minScore: number;
  verifyUrl: string;
  remoteIp?: string;
  /** Abort siteverify after this many ms (default 5000). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** Default siteverify timeout, in ms. */
export const RECAPTCHA_TIMEOUT_MS = 5000;

/**
 * Asks siteverify about `token` and judges the answer. Never throws: every failure is a
 * verdict with success false and a reason (the caller decides what "unavailable" means).
 */
export async function verifyRecaptchaToken(options: VerifyOptions): Promise<RecaptchaVerdict> {
  const verdict = (reason: RecaptchaReason, extra: Partial<RecaptchaVerdict> = {}): RecaptchaVerdict => ({
    success: reason === "ok",
    reason,
    score: null,
    action: null,
    errorCodes: [],
    ...extra,
  });
  const token = options.token?.trim();
  if (!token) return verdict("missing_token", { errorCodes: ["missing-input-response"] });
  const body = new URLSearchParams({ secret: options.secret, response: token });
  if (options.remoteIp) body.set("remoteip", options.remoteIp);
  const doFetch = options.fetch ?? globalThis.fetch;
  let answer: unknown;
  try {
    const response = await doFetch(options.verifyUrl, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? RECAPTCHA_TIMEOUT_MS),
    });
    if (!response.ok) return verdict("unavailable", { errorCodes: [`http-${response.status}`] });
    answer = await response.json();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    if (!timedOut && error instanceof SyntaxError) return verdict("unavailable", { errorCodes: ["bad-response"] });
    return verdict("unavailable", { errorCodes: [timedOut ? "timeout" : "network-error"] });
  }
  if (typeof answer !== "object" || answer === null) return verdict("unavailable", { errorCodes: ["bad-response"] });
  const a = answer as { success?: unknown; score?: unknown; action?: unknown; "error-codes"?: unknown };
  const score = typeof a.score === "number" ? a.score : null;
  const action = typeof a.action === "string" ? a.action : null;
  const extra = { score, action, errorCodes: Array.isArray(a["error-codes"]) ? a["error-codes"].map(String) : [] };
  if (a.success !== true) return verdict("rejected", extra);
  if (action !== options.expectedAction) return verdict("wrong_action", extra);
  if (score === null || score < options.minScore) return verdict("low_score", extra);
  return verdict("ok", extra);
}
