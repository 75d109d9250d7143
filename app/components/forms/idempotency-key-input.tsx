import { IDEMPOTENCY_FIELD } from "~/lib/idempotency";

/**
 * The hidden idempotency key of a money form (issue 5 item 1): the value the page's loader made
 * with newIdempotencyKey(), posted as `key` (IDEMPOTENCY_FIELD), so a double submit or a resent
 * page replays the operation instead of moving money twice.
 */
export function IdempotencyKeyInput({ value }: { value: string }) {
  return <input type="hidden" name={IDEMPOTENCY_FIELD} value={value} />;
}
