/**
 * Configuration read from the environment once at start-up; every variable is documented
 * in the README's configuration table.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface AppConfig {
  port: number;
  host: string;
  /** postgres://… selects PostgreSQL through postgres.js; undefined selects embedded PGlite. */
  databaseUrl: string | undefined;
  /** Absolute path holding PGlite files, generated secrets and uploads. */
  dataDir: string;
  sessionSecret: string;
  publicUrl: string;
  siteName: string;
  /** False when SEED_DEMO=0: start with an empty community. */
  seedDemo: boolean;
  production: boolean;
}

let cached: AppConfig | undefined;

/** Returns the process configuration, creating DATA_DIR and the session secret on first use. */
export function getConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  if (cached && env === process.env) return cached;
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? "0.0.0.0";
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  mkdirSync(dataDir, { recursive: true });
  const config: AppConfig = {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    sessionSecret: env.SESSION_SECRET || readOrCreateSecret(dataDir),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    siteName: env.SITE_NAME || "Сходка",
    seedDemo: env.SEED_DEMO !== "0",
    production: env.NODE_ENV === "production",
  };
  if (env === process.env) cached = config;
  return config;
}

/** Reads DATA_DIR/session-secret, writing a random one the first time (never committed). */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
