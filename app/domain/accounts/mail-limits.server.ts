/**
 * Limits on mail a visitor can make the site send (issue 6 "Email",
 * like the login limit of docs/product/limits.md#rate-limits): per target address and per IP, counted in the shared `rate_limits`
 * table through rate-limiter-flexible, so every server process shares the counters.
 */
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { RateLimited } from "~/lib/errors";

/** 5 mails per hour to one address, 20 per hour from one IP. */
export const MAIL_LIMITS = {
  perAddress: { points: 5, durationS: 60 * 60 },
  perIp: { points: 20, durationS: 60 * 60 },
} as const;

const limiters = new WeakMap<Db, { address: RateLimiterDrizzle; ip: RateLimiterDrizzle }>();

function limitersOf(db: Db) {
  let found = limiters.get(db);
  if (!found) {
    const make = (keyPrefix: string, { points, durationS }: { points: number; durationS: number }) =>
      new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix, points, duration: durationS, clearExpiredByTimeout: false });
    found = { address: make("accountMailAddress", MAIL_LIMITS.perAddress), ip: make("accountMailIp", MAIL_LIMITS.perIp) };
    limiters.set(db, found);
  }
  return found;
}

/**
 * Counts one mail to `address` (any string; lower-cased, counted whether or not a member has
 * it, so the limit reveals no accounts) requested from `ip`.
 * Throws RateLimited (429 `rate_limited`) when either limit is used up.
 */
export async function consumeMailLimit(db: Db, address: string, ip: string): Promise<void> {
  const { address: byAddress, ip: byIp } = limitersOf(db);
  try {
    await byIp.consume(ip);
    await byAddress.consume(address.toLowerCase());
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      throw new RateLimited(error.msBeforeNext, "Слишком много писем за последний час. Попробуйте позже.");
    }
    throw error;
  }
}
