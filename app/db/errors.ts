/**
 * PostgreSQL error codes as postgres.js and PGlite report them: Drizzle wraps the driver's
 * error, so the code may sit on the error itself or anywhere down its `cause` chain.
 */

/** True when `error` or any error in its `cause` chain carries one of the SQLSTATE `codes`. */
export function hasPgCode(error: unknown, ...codes: string[]): boolean {
  for (let current: unknown = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && codes.includes(code)) return true;
  }
  return false;
}

/** unique_violation (23505). */
export const isUniqueViolation = (error: unknown) => hasPgCode(error, "23505");

/** foreign_key_violation (23503): the row referred to is gone. */
export const isForeignKeyViolation = (error: unknown) => hasPgCode(error, "23503");

/** serialization_failure (40001) or deadlock_detected (40P01): the transaction may be retried. */
export const isRetryableTransactionError = (error: unknown) => hasPgCode(error, "40001", "40P01");
