/**
 * Rate limits of docs/product/limits.md#rate-limits, counted in the `rate_limits` table through
 * rate-limiter-flexible's Drizzle store, so every server process shares the same counters.
 */
import { lt } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { CHAT_LIMITS } from "~/domain/conversations/types";
import { RateLimited } from "./errors";

/** The configured limits: `points` actions per `durationS` seconds. */
export const LIMITS = {
  /** Login: 10 failures per 15 minutes per account or IP, then 429. */
  loginFailures: { points: 10, durationS: 15 * 60 },
  /** Posts: 1 per 30 s per member. */
  posts: { points: 1, durationS: 30 },
  /** Comments: 1 per 5 s per member. */
  comments: { points: 1, durationS: 5 },
  /** Wall posts: as comments, 1 per 5 s per member (the product names no figure; a wall entry is a comment on a profile: docs/product/content.md#wall). */
  wallPosts: { points: 1, durationS: 5 },
  /** Likes (given or taken back): 100 per hour per member. */
  likes: { points: 100, durationS: 60 * 60 },
  /** Chat messages: 20 per 30 s per member (docs/product/limits.md#rate-limits), as CHAT_LIMITS states them for the browser too. */
  messages: { points: CHAT_LIMITS.messagesPerWindow, durationS: CHAT_LIMITS.windowS },
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

/**
 * Starts a sign-in attempt: counts it against the account (`accountKey`: the member's id
 * when the login names one, else the login text) and the IP *before* the password is
 * checked, atomically, so a burst of parallel guesses cannot slip past the limit.
 * Throws RateLimited once either has 10 attempts in 15 minutes (docs/product/limits.md#rate-limits);
 * a successful sign-in gives its attempt back (finishLoginAttempt), so only failures add up.
 */
export async function beginLoginAttempt(db: Db, accountKey: string, ip: string): Promise<void> {
  const limit = limiter(db, "loginFailures");
  for (const key of [`account:${accountKey}`, `ip:${ip}`]) {
    try {
      await limit.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new RateLimited(error.msBeforeNext, "Слишком много неудачных попыток входа. Попробуйте через 15 минут.");
      }
      throw error;
    }
  }
}

/** After a successful sign-in: clears the account's failures and returns the IP's attempt. */
export async function finishLoginAttempt(db: Db, accountKey: string, ip: string): Promise<void> {
  const limit = limiter(db, "loginFailures");
  await limit.delete(`account:${accountKey}`);
  await limit.reward(`ip:${ip}`, 1);
}

/** Deletes expired counters; run at start-up and periodically. */
export async function purgeExpiredLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expire, new Date()));
}
