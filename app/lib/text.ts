/**
 * The one rule for text people send to the money domain (issue 5 review: hostile input must get a
 * 400, never a 500). PostgreSQL refuses NUL (U+0000) in `text` columns (22021) and in `jsonb`
 * (22P05), and refuses lone UTF-16 surrogates ("\ud800") in `jsonb` (22P05), where operation
 * results (ledger_operations.result) and claim evidence are stored. Pure: schemas shared with the
 * browser use it too.
 *
 * Zod schemas refine with `cleanTextRefinement` (the issue carries `params.code` = "invalid_text",
 * which the /api body parser answers as that code); domain entry points call `assertCleanText`.
 */
import { ValidationFailed } from "./errors";

/** The stable code of text with a forbidden character. */
export const INVALID_TEXT_CODE = "invalid_text";

/** What a person reads when their text carries a forbidden character. */
export const INVALID_TEXT_MESSAGE = "Текст содержит недопустимые символы";

/** True for text without NUL (U+0000) and without lone UTF-16 surrogates (well-formed Unicode). */
export function isCleanText(value: string): boolean {
  return !value.includes("\u0000") && !LONE_SURROGATE.test(value);
}

/**
 * A lone surrogate (what String.prototype.isWellFormed rejects; spelled out so older browsers and
 * the ES2023 lib work): with the `u` flag a valid pair is one code point outside this range.
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * The arguments of a Zod `.refine(...)` applying isCleanText: `z.string().refine(...cleanTextRefinement())`.
 * The issue's `params.code` is INVALID_TEXT_CODE.
 */
export function cleanTextRefinement(message: string = INVALID_TEXT_MESSAGE) {
  return [isCleanText, { message, params: { code: INVALID_TEXT_CODE } }] as const;
}

/** The stable code a Zod issue asks for (`params.code` of a refinement such as cleanTextRefinement), if any. */
export function issueCode(issue: { code: string; params?: unknown }): string | undefined {
  if (issue.code !== "custom" || typeof issue.params !== "object" || issue.params === null) return undefined;
  const code = (issue.params as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Throws ValidationFailed (INVALID_TEXT_CODE "invalid_text", 400) with `message` under `field`
 * unless every given value is clean text (isCleanText); null and undefined pass.
 */
export function assertCleanText(field: string, ...values: (string | null | undefined)[]): void {
  for (const value of values) {
    if (typeof value === "string" && !isCleanText(value)) {
      throw new ValidationFailed(INVALID_TEXT_MESSAGE, { [field]: [INVALID_TEXT_MESSAGE] }, INVALID_TEXT_CODE);
    }
  }
}
