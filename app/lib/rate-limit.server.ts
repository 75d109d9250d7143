/**
 * Rate limits of PRODUCT.md Limits, counted in the `rate_limits` table through
 * rate-limiter-flexible's Drizzle store, so every server process shares the same counters.
 */
import { lt } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { RateLimited } from "./errors";

/** The configured limits: `points` actions per `durationS` seconds. */
export const LIMITS = {
  /** Login: 10 failures per 15 minutes per account or IP, then 429. */
  loginFailures: { points: 10, durationS: 15 * 60 },
  /** Posts: 1 per 30 s per member. */
  posts: { points: 1, durationS: 30 },
  /** Comments: 1 per 5 s per member. */
  comments: { points: 1, durationS: 5 },
  /** Wall posts: as comments, 1 per 5 s per member (PRODUCT.md is silent; a wall entry is a comment on a profile). */
  wallPosts: { points: 1, durationS: 5 },
  /** Likes (given or taken back): 100 per hour per member. */
  likes: { points: 100, durationS: 60 * 60 },
} as const;

type LimitName = keyof typeof LIMITS;

const limiters = new WeakMap<Db, Map<LimitName, RateLimiterDrizzle>>();

function limiter(db: Db, name: LimitName): RateLimiterDrizzle {
  let byName = limiters.get(db);
  if (!byName) limiters.set(db, (byName = new Map()));
  let found = byName.get(name);
  if (!found) {
    const { points, durationS } = LIMITS[name];
    found = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: name,
      points,
      duration: durationS,
      clearExpiredByTimeout: false,
    });
    byName.set(name, found);
  }
  return found;
}

/**
 * Counts one action against `name` for `key`.
 * Throws RateLimited (429, with the wait in ms) when the limit is already used up.
 */
export async function consumeLimit(db: Db, name: LimitName, key: string, message?: string): Promise<void> {
  try {
    await limiter(db, name).consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new RateLimited(error.msBeforeNext, message);
    throw error;
  }
}

const loginKeys = (login: string, ip: string) => [`account:${login.trim().toLowerCase()}`, `ip:${ip}`];

/** Throws RateLimited when the account or the IP has 10 failed sign-ins in the last 15 minutes. */
export async function checkLoginAllowed(db: Db, login: string, ip: string): Promise<void> {
  const { points } = LIMITS.loginFailures;
  for (const key of loginKeys(login, ip)) {
    const state = await limiter(db, "loginFailures").get(key);
    if (state && state.consumedPoints >= points) {
      throw new RateLimited(state.msBeforeNext, "Слишком много неудачных попыток входа. Попробуйте через 15 минут.");
    }
  }
}

/** Counts a failed sign-in against both the account and the IP. */
export async function recordLoginFailure(db: Db, login: string, ip: string): Promise<void> {
  for (const key of loginKeys(login, ip)) {
    await limiter(db, "loginFailures").penalty(key, 1);
  }
}

/** A successful sign-in clears the account's failures (the IP's stay counted). */
export async function recordLoginSuccess(db: Db, login: string): Promise<void> {
  await limiter(db, "loginFailures").delete(loginKeys(login, "")[0]!);
}

/** Deletes expired counters; run at start-up and periodically. */
export async function purgeExpiredLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expire, new Date()));
}
