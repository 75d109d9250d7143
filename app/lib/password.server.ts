import { hash, verify } from "@node-rs/argon2";
import { getConfig, type AppConfig } from "./config.server";

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/**
 * Argon2id's cost for each PASSWORD_HASHING setting (README, configuration). "standard" is the
 * library's defaults, 19 MiB and 2 passes: OWASP's recommended minimum, about 40 ms a hash on a
 * 2-core machine. "fast-insecure-for-tests" is the algorithm's smallest sensible cost (256 KiB,
 * one pass, 0.2 ms): test runs register thousands of members, and at the standard cost the deals
 * suite (55 members) spent 2.5 s of its 18.6 s hashing. Never for a real site: it makes a stolen
 * hash cheap to guess. The cost is written into each hash, so verifying follows the hash, not the
 * setting.
 */
const COSTS: Record<AppConfig["passwordHashing"], { memoryCost?: number; timeCost?: number }> = {
  standard: {},
  "fast-insecure-for-tests": { memoryCost: 256, timeCost: 1 },
};

/** The PHC string of `password` hashed with argon2id at the configured cost (PASSWORD_HASHING). */
export function hashPassword(password: string, hashing: AppConfig["passwordHashing"] = getConfig().passwordHashing): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...COSTS[hashing] });
}

/** True when the password matches the stored argon2 hash, whatever cost it was made with; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
