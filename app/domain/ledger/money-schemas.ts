/**
 * Zod fields for amounts people type in roubles (issue 5 item 7: amounts entered in roubles,
 * stored in kopecks). One helper for every money form (deals, claims; the wallet may follow), so
 * «1 234,50», «1234.5» and «100 ₽» mean the same everywhere. Pure: the browser uses it too.
 */
import { z } from "zod";
import { MAX_OPERATION_KOPECKS, parseRoubles } from "./money";

export interface RoublesFieldOptions {
  /** The Russian message for a missing, malformed or out-of-range amount. */
  message: string;
  /** The smallest amount accepted, kopecks (default 1). */
  min?: number;
  /** The largest amount accepted, kopecks (default MAX_OPERATION_KOPECKS, 10 000 000 ₽). */
  max?: number;
}

/**
 * A form field of roubles as a person types them (parseRoubles: «1 234,50», «1234.5», «100 ₽»)
 * → integer kopecks from `min` to `max`; anything else is refused with `message`.
 */
export function roublesField({ message, min = 1, max = MAX_OPERATION_KOPECKS }: RoublesFieldOptions) {
  return z.string({ error: message }).transform((value, ctx) => {
    const kopecks = parseRoubles(value);
    if (kopecks === null || kopecks < min || kopecks > max) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return kopecks;
  });
}
