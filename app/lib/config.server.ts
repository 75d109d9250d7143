/**
 * Configuration read from the environment once at start-up; every variable is documented
 * in the README's configuration table.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseAllowedHosts } from "./images/allow-list";

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
  /** The browser's realtime transport (REALTIME_TRANSPORT): "ws" (default; SSE after 6 failed reconnects) or "sse". */
  realtimeTransport: "ws" | "sse";
  /**
   * The path browsers open server-sent events at (REALTIME_SSE_PATH, docs/product/realtime.md#transports: "a configured
   * endpoint"); "/api/sse", the path this server answers, unless a proxy maps another one to it.
   */
  realtimeSsePath: string;
  /** TELEGRAM_BOT_TOKEN: the bot token initData is signed with (issue 6); undefined turns Telegram sign-in off. */
  telegramBotToken: string | undefined;
  /** TELEGRAM_INIT_DATA_MAX_AGE: seconds after its auth_date that initData is still accepted (default 86400, 24 h). */
  telegramInitDataMaxAgeS: number;
  /** SMTP connection URL for nodemailer (SMTP_URL); undefined writes every mail to DATA_DIR/mail/ instead. */
  smtpUrl: string | undefined;
  /** The From header of mail (MAIL_FROM); defaults to `"<siteName>" <no-reply@<publicUrl host>>`. */
  mailFrom: string;
  /** Hosts the image endpoint may fetch from besides this site (IMAGE_ALLOWED_HOSTS; app/lib/images/allow-list.ts). */
  imageAllowedHosts: string[];
  /** reCAPTCHA v3 (issue 6 "Captcha"; lib/recaptcha/): RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET_KEY; both needed to turn it on. */
  recaptchaSiteKey: string | undefined;
  recaptchaSecretKey: string | undefined;
  /** RECAPTCHA_MIN_SCORE: the lowest accepted score, 0…1 (default 0.5). */
  recaptchaMinScore: number;
  /** RECAPTCHA_VERIFY_URL: Google's siteverify endpoint; overridden only by tests. */
  recaptchaVerifyUrl: string;
}

let cached: AppConfig | undefined;

/**
 * Returns the process configuration, creating DATA_DIR and the session secret on first use.
 * Throws an Error naming the variable when REALTIME_SSE_PATH is not a path.
 */
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
    realtimeTransport: env.REALTIME_TRANSPORT === "sse" ? "sse" : "ws",
    realtimeSsePath: ssePath(env.REALTIME_SSE_PATH),
    telegramBotToken: env.TELEGRAM_BOT_TOKEN || undefined,
    telegramInitDataMaxAgeS: positiveSeconds("TELEGRAM_INIT_DATA_MAX_AGE", env.TELEGRAM_INIT_DATA_MAX_AGE, 24 * 60 * 60),
    imageAllowedHosts: parseAllowedHosts(env.IMAGE_ALLOWED_HOSTS),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: "",
    recaptchaSiteKey: env.RECAPTCHA_SITE_KEY || undefined,
    recaptchaSecretKey: env.RECAPTCHA_SECRET_KEY || undefined,
    recaptchaMinScore: minScore(env.RECAPTCHA_MIN_SCORE),
    recaptchaVerifyUrl: env.RECAPTCHA_VERIFY_URL || "https://www.google.com/recaptcha/api/siteverify",
  };
  config.mailFrom = env.MAIL_FROM || `"${config.siteName}" <no-reply@${new URL(config.publicUrl).hostname}>`;
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

/** REALTIME_SSE_PATH: an absolute path on this origin without query or fragment ("/api/sse" when unset). */
function ssePath(value: string | undefined): string {
  if (!value) return "/api/sse";
  if (!/^\/[^\s?#]*$/.test(value)) throw new Error(`REALTIME_SSE_PATH must be a path starting with "/" (got "${value}")`);
  return value.replace(/\/+$/, "") || "/";
}

/** A whole number of seconds above 0, or `fallback` when unset; throws an Error naming the variable otherwise. */
function positiveSeconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds <= 0) throw new Error(`${name} must be a whole number of seconds above 0 (got "${value}")`);
  return seconds;
}

/** RECAPTCHA_MIN_SCORE: a number from 0 to 1, 0.5 when unset; throws an Error naming the variable otherwise. */
function minScore(value: string | undefined): number {
  if (value === undefined || value === "") return 0.5;
  const score = Number(value);
  if (!Number.isFinite(score) || score < 0 || score > 1) throw new Error(`RECAPTCHA_MIN_SCORE must be a number from 0 to 1 (got "${value}")`);
  return score;
}
