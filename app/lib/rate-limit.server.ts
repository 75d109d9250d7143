/**
 * Rate limits (docs/product/limits.md#rate-limits, README "Security"), counted in the
 * `rate_limits` table through rate-limiter-flexible's Drizzle store, so every server process
 * shares the same counters on PostgreSQL, and the newcomer's single PGlite process has them too.
 * Each limit can be changed without a release through RATE_LIMITS (config.server.js).
 */
import { lt } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { getConfig } from "./config.server";
import { AppError, RateLimited } from "./errors";
import { createLoginWaitingRoom, LOGIN_WAITING_LIMITS, type LoginWaitingRoom } from "./login-slowdown";
import { LIMITS, LOGIN_SLOWDOWN_MS, type LimitName, type LimitSpec } from "./rate-limit-table";

export { LIMITS, LOGIN_SLOWDOWN_MS, type LimitName, type LimitSpec } from "./rate-limit-table";

/** The limit in force: RATE_LIMITS's override, else the default. */
export function limitOf(name: LimitName): LimitSpec {
  return getConfig().rateLimits[name] ?? LIMITS[name];
}

const limiters = new WeakMap<Db, Map<LimitName, RateLimiterDrizzle>>();
const overridesByDb = new WeakMap<Db, Partial<Record<LimitName, LimitSpec>>>();

/**
 * Replaces limits for database `db` in this process, before its first use of them: for load
 * tests and benchmarks of other rules, which would otherwise measure the limits (a server
 * process takes RATE_LIMITS instead).
 */
export function overrideLimits(db: Db, overrides: Partial<Record<LimitName, LimitSpec>>): void {
  overridesByDb.set(db, { ...overridesByDb.get(db), ...overrides });
  for (const name of Object.keys(overrides) as LimitName[]) limiters.get(db)?.delete(name);
}

function limiter(db: Db, name: LimitName): RateLimiterDrizzle {
  let byName = limiters.get(db);
  if (!byName) limiters.set(db, (byName = new Map()));
  let found = byName.get(name);
  if (!found) {
    const { points, durationS } = overridesByDb.get(db)?.[name] ?? limitOf(name);
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
 * Throws RateLimited (429, with the wait in ms, shown as Retry-After) when the limit is already used up.
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
 * Runs `action` counted against limit `name` for `key` (consumeLimit first, so a burst cannot
 * slip past). When `action` refuses the user's input (an AppError other than RateLimited: a taken
 * username, a wrong captcha) the point is given back, so only accepted actions add up.
 * Throws RateLimited (429) past the limit, else whatever `action` throws.
 */
export async function withLimit<T>(db: Db, name: LimitName, key: string, message: string, action: () => Promise<T>): Promise<T> {
  await consumeLimit(db, name, key, message);
  try {
    return await action();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof RateLimited)) await limiter(db, name).reward(key, 1);
    throw error;
  }
}

const LOGIN_LIMIT_MESSAGE = "Слишком много неудачных попыток входа с этого адреса. Попробуйте позже.";

/** This process's login waiting room: LOGIN_SLOWDOWN_MS each, LOGIN_WAITING_LIMITS places. */
const loginWaitingRoom = createLoginWaitingRoom({ delayMs: LOGIN_SLOWDOWN_MS, ...LOGIN_WAITING_LIMITS });

/**
 * Starts a sign-in attempt for account `accountKey` (the member's id when the login names one,
 * else the login text) from address `ip` (issue 13 item 2). Counted *before* the password is
 * checked, atomically, so a burst of parallel guesses cannot slip past:
 * - per (account, address), 10 failures in 15 minutes, and per address, 50 in 15 minutes: then
 *   RateLimited (429) for that address only — the owner signs in from any other;
 * - per account from anywhere: past 10 in 15 minutes the attempt is slowed by LOGIN_SLOWDOWN_MS
 *   instead of refused, so rotating addresses cannot lock the owner out. At most 5 attempts per
 *   account and 100 per process wait at once (LOGIN_WAITING_LIMITS); past that the attempt is
 *   refused at once with RateLimited (429 `login_busy`, Retry-After 2 s) and its counts given back.
 * A successful sign-in gives the attempts back (finishLoginAttempt), so only failures add up.
 * `waitingRoom` is the process's own unless a test passes one.
 */
export async function beginLoginAttempt(db: Db, accountKey: string, ip: string, waitingRoom: LoginWaitingRoom = loginWaitingRoom): Promise<void> {
  await consumeLimit(db, "loginAccountAddress", `${accountKey}|${ip}`, LOGIN_LIMIT_MESSAGE);
  try {
    await consumeLimit(db, "loginAddress", ip, LOGIN_LIMIT_MESSAGE);
  } catch (error) {
    await limiter(db, "loginAccountAddress").reward(`${accountKey}|${ip}`, 1);
    throw error;
  }
  try {
    await limiter(db, "loginAccount").consume(accountKey);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    try {
      await waitingRoom.wait(accountKey);
    } catch (refusal) {
      // Refused before any password was checked: this attempt guessed nothing, so it counts nowhere.
      await limiter(db, "loginAccountAddress").reward(`${accountKey}|${ip}`, 1);
      await limiter(db, "loginAddress").reward(ip, 1);
      await limiter(db, "loginAccount").reward(accountKey, 1);
      throw refusal;
    }
  }
}

/**
 * After a successful sign-in: clears the (account, address) failures and gives the address and
 * the account this attempt back. The account's other failures stay counted: the owner signing in
 * during an attack does not lift the slow-down for the attacker.
 */
export async function finishLoginAttempt(db: Db, accountKey: string, ip: string): Promise<void> {
  await limiter(db, "loginAccountAddress").delete(`${accountKey}|${ip}`);
  await limiter(db, "loginAddress").reward(ip, 1);
  await limiter(db, "loginAccount").reward(accountKey, 1);
}

/** Deletes expired counters; run at start-up and periodically. */
export async function purgeExpiredLimits(db: Db): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expire, new Date()));
}
