/**
 * reCAPTCHA v3 on the registration and sign-in forms (issue 6 "Captcha"; docs/product/accounts.md#captcha).
 *
 * - On only when both RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY are set. One without the
 *   other is logged once (console.warn) and the forms work without captcha, as docs/product/accounts.md#captcha asks
 *   for a missing site key.
 * - The page gets a token for its action in the hidden field `recaptchaToken`
 *   (components/recaptcha/recaptcha-field.tsx); the action checks it here before anything else.
 * - Fail-open: when siteverify cannot be reached, times out or answers garbage, the form is let
 *   through with a warning logged and the outcome recorded as `failedOpen`. An outage at Google
 *   must not lock every member out; the honeypot and the login rate limit still apply.
 */
import { getConfig, type AppConfig } from "../config.server";
import { ValidationFailed } from "../errors";
import { recordRecaptchaOutcome } from "./outcomes.server";
import { verifyRecaptchaToken, type RecaptchaVerdict } from "./verify.server";

/** The form field carrying the token. */
export const RECAPTCHA_FIELD = "recaptchaToken";

export type RecaptchaAction = "login" | "register";

/** What /admin/recaptcha-status and the pages may know of the configuration (never the secret). */
export interface RecaptchaStatus {
  enabled: boolean;
  siteKeyPresent: boolean;
  secretKeyPresent: boolean;
  /** The public site key when enabled (the browser needs it), else null. */
  siteKey: string | null;
  minScore: number;
  /** True when siteverify is not Google's (tests). */
  customVerifyUrl: boolean;
}

let warned = false;

/** The captcha configuration; logs once when only one of the two keys is set. */
export function recaptchaStatus(config: AppConfig = getConfig()): RecaptchaStatus {
  const siteKeyPresent = Boolean(config.recaptchaSiteKey);
  const secretKeyPresent = Boolean(config.recaptchaSecretKey);
  if (siteKeyPresent !== secretKeyPresent && !warned) {
    warned = true;
    console.warn(siteKeyPresent ? "reCAPTCHA: RECAPTCHA_SECRET_KEY is not set; captcha is off." : "reCAPTCHA: RECAPTCHA_SITE_KEY is not set; captcha is off.");
  }
  const enabled = siteKeyPresent && secretKeyPresent;
  return {
    enabled,
    siteKeyPresent,
    secretKeyPresent,
    siteKey: enabled ? config.recaptchaSiteKey! : null,
    minScore: config.recaptchaMinScore,
    customVerifyUrl: config.recaptchaVerifyUrl !== "https://www.google.com/recaptcha/api/siteverify",
  };
}

/** The site key the form should use, or null when captcha is off (for loaders). */
export function recaptchaSiteKey(): string | null {
  return recaptchaStatus().siteKey;
}

export const CAPTCHA_NEEDS_JS_MESSAGE =
  "Не удалось пройти проверку reCAPTCHA: она работает только с включённым JavaScript. Включите JavaScript, обновите страницу и отправьте форму ещё раз.";
export const CAPTCHA_FAILED_MESSAGE = "Проверка reCAPTCHA не пройдена. Обновите страницу и попробуйте ещё раз.";

/**
 * Checks the form's token for `action` when captcha is on; does nothing when it is off.
 * Throws ValidationFailed (400) `captcha_required` when the token is missing and
 * `captcha_failed` when Google refuses it, the action differs or the score is below
 * RECAPTCHA_MIN_SCORE. Siteverify unavailable: passes (fail-open, see the module comment).
 * `deps.fetch` replaces the global fetch (tests).
 */
export async function checkRecaptcha(
  formData: FormData,
  action: RecaptchaAction,
  remoteIp: string | undefined,
  deps: { config?: AppConfig; fetch?: typeof globalThis.fetch } = {},
): Promise<RecaptchaVerdict | null> {
  const config = deps.config ?? getConfig();
  if (!recaptchaStatus(config).enabled) return null;
  const token = formData.get(RECAPTCHA_FIELD);
  const verdict = await verifyRecaptchaToken({
    token: typeof token === "string" ? token : null,
    expectedAction: action,
    secret: config.recaptchaSecretKey!,
    minScore: config.recaptchaMinScore,
    verifyUrl: config.recaptchaVerifyUrl,
    remoteIp,
    fetch: deps.fetch,
  });
  const failedOpen = verdict.reason === "unavailable";
  if (failedOpen) console.warn(`reCAPTCHA: siteverify unavailable (${verdict.errorCodes.join(", ")}); the ${action} form is let through`);
  recordRecaptchaOutcome({
    at: new Date().toISOString(),
    action,
    score: verdict.score,
    success: verdict.success,
    reason: verdict.reason,
    errorCodes: verdict.errorCodes,
    failedOpen,
  });
  if (verdict.success || failedOpen) return verdict;
  if (verdict.reason === "missing_token") throw new ValidationFailed(CAPTCHA_NEEDS_JS_MESSAGE, undefined, "captcha_required");
  throw new ValidationFailed(CAPTCHA_FAILED_MESSAGE, undefined, "captcha_failed");
}
