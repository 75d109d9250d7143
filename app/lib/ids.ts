/** Largest value of a PostgreSQL `integer` (serial ids). */
const MAX_INT4 = 2_147_483_647;

/** True for a positive whole number that fits an `integer` id column; false for anything a user could type instead. */
export function isValidId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= MAX_INT4;
}
