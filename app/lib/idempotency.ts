/**
 * Idempotency keys of page forms (issue 5 item 1: every money-moving request carries one, a retry
 * with the same key replays instead of moving money twice). Pure: the ledger
 * (app/domain/ledger/operations.server.ts), the pages' actions and the browser share it.
 *
 * A page's loader makes a key with `newIdempotencyKey()`, the form sends it back in the hidden
 * field `IDEMPOTENCY_FIELD` (<IdempotencyKeyInput>), and the action checks it with
 * `IdempotencyKeySchema`.
 */
import { z } from "zod";

/** A key clients may send: 1–200 printable ASCII characters without spaces (a UUID, say). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,200}$/u;

/** The name of the hidden form field carrying the key, on every page form. */
export const IDEMPOTENCY_FIELD = "key";

/** What a member reads when the form's key is missing, malformed or already used for another request. */
export const STALE_FORM_MESSAGE = "Форма устарела: обновите страницу и отправьте её ещё раз.";

/** The hidden key field of a page form: the same rule as the ledger's isValidIdempotencyKey. */
export const IdempotencyKeySchema = z.string({ error: STALE_FORM_MESSAGE }).regex(IDEMPOTENCY_KEY_PATTERN, STALE_FORM_MESSAGE);

/** A fresh key for one rendering of a page's form (a random UUID, 36 characters). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
