// @ts-check
/**
 * The one place the process environment is read (issue 15; docs/decisions/0013). Every
 * variable of the README's configuration table is validated here with Zod at start-up, and
 * the rest of the code reads the typed AppConfig from getConfig().
 *
 * Plain JavaScript with JSDoc types, so that server/index.js (started with `node`, no
 * compiler) and the code Vite builds import the very same file. The parsed configuration is
 * kept on globalThis, so the copy bundled into the server build, the copy server/index.js
 * imports and the copies Vite reloads in development all share one parse.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

/**
 * @typedef {object} AppConfig
 * @property {"production" | "development" | "test"} nodeEnv NODE_ENV ("development" when unset).
 * @property {boolean} production True when NODE_ENV=production: the built server with a CSP; otherwise Vite's middleware serves the app.
 * @property {number} port PORT, 0…65535.
 * @property {number} webConcurrency WEB_CONCURRENCY, 1…64: server processes (node:cluster workers) sharing the port; more than 1 needs DATABASE_URL.
 * @property {string} host HOST, the address to listen on.
 * @property {string | undefined} databaseUrl postgres://… selects PostgreSQL through postgres.js; undefined selects embedded PGlite.
 * @property {string} dataDir Absolute path holding PGlite files, generated secrets and uploads (DATA_DIR).
 * @property {string} buildDir Absolute path of the React Router build (BUILD_DIR): build/client is served, build/server imported.
 * @property {string} sessionSecret SESSION_SECRET, or the one generated once into DATA_DIR/session-secret.
 * @property {string} publicUrl PUBLIC_URL without a trailing slash (default http://localhost:PORT).
 * @property {string} siteName SITE_NAME.
 * @property {boolean} seedDemo False when SEED_DEMO=0: start with an empty community.
 * @property {boolean | number | string} trustProxy TRUST_PROXY as Express's "trust proxy" takes it: true/false, a number of hops, or comma-separated addresses, subnets and the names loopback, linklocal, uniquelocal.
 * @property {LogLevel} logLevel LOG_LEVEL: the lowest level written (default info).
 * @property {"standard" | "fast-insecure-for-tests"} passwordHashing PASSWORD_HASHING: "standard" (argon2id at OWASP's minimum, the default) or, for test runs only, a cheap argon2id (see app/lib/password.server.ts).
 * @property {"ws" | "sse"} realtimeTransport The browser's realtime transport (REALTIME_TRANSPORT): "ws" (SSE after 6 failed reconnects) or "sse".
 * @property {string} realtimeSsePath The path browsers open server-sent events at (REALTIME_SSE_PATH); "/api/sse", the path this server answers, unless a proxy maps another one to it.
 * @property {number} realtimeAuthTimeoutMs REALTIME_AUTH_TIMEOUT_MS: how long a websocket may take to send its auth frame, in ms.
 * @property {number} realtimeMaxConnectionsPerAddress REALTIME_MAX_CONNECTIONS_PER_ADDRESS: live connections (websockets and event streams) one client address may hold per process (default 100).
 * @property {number} realtimeMaxConnectionsPerMember REALTIME_MAX_CONNECTIONS_PER_MEMBER: live connections one member may hold per process (default 20).
 * @property {string | undefined} telegramBotToken TELEGRAM_BOT_TOKEN: the bot token initData is signed with; undefined turns Telegram sign-in off.
 * @property {number} telegramInitDataMaxAgeS TELEGRAM_INIT_DATA_MAX_AGE: seconds after its auth_date that initData is still accepted.
 * @property {number} telegramInitDataMaxSkewS TELEGRAM_INIT_DATA_MAX_SKEW: seconds auth_date may lie ahead of this server's clock (default 60; issue 13 item 7).
 * @property {Partial<Record<RateLimitName, { points: number; durationS: number }>>} rateLimits RATE_LIMITS: overrides of the rate limits by name (app/lib/rate-limit-table.ts), e.g. `transfers=60/60`.
 * @property {string | undefined} smtpUrl SMTP_URL for nodemailer; undefined writes every mail to DATA_DIR/mail/ instead.
 * @property {string} mailFrom MAIL_FROM; defaults to `"<siteName>" <no-reply@<publicUrl host>>`.
 * @property {string[]} imageAllowedHosts IMAGE_ALLOWED_HOSTS: hosts the image endpoint may fetch from besides this site (see parseAllowedHosts).
 * @property {string | undefined} recaptchaSiteKey RECAPTCHA_SITE_KEY; with the secret key it turns reCAPTCHA v3 on (lib/recaptcha/).
 * @property {string | undefined} recaptchaSecretKey RECAPTCHA_SECRET_KEY, used only for siteverify.
 * @property {number} recaptchaMinScore RECAPTCHA_MIN_SCORE: the lowest accepted score, 0…1.
 * @property {string} recaptchaVerifyUrl RECAPTCHA_VERIFY_URL: Google's siteverify endpoint; overridden only by tests.
 * @property {AssistantConfig} assistant The assistant of /chatgpt (ASSISTANT_*; docs/decisions/0014-assistant-streaming-and-quota.md).
 */

/**
 * ASSISTANT_* variables: an OpenAI-compatible Chat Completions endpoint and the member limits.
 * @typedef {object} AssistantConfig
 * @property {boolean} enabled True when ASSISTANT_BASE_URL and ASSISTANT_MODEL are both set; otherwise the page says the assistant is off.
 * @property {string} baseUrl ASSISTANT_BASE_URL without a trailing slash, e.g. https://api.openai.com/v1 (…/chat/completions is appended).
 * @property {string | undefined} apiKey ASSISTANT_API_KEY: sent as a Bearer token; optional for local servers that need none.
 * @property {string} model ASSISTANT_MODEL: the model name sent with every request.
 * @property {number} dailyQuota ASSISTANT_DAILY_QUOTA: requests per member per Moscow day (default 50).
 * @property {number} timeoutMs ASSISTANT_TIMEOUT_MS: the longest wait for the first text and between two pieces of text, ms (default 30000).
 * @property {number} maxPromptChars ASSISTANT_MAX_PROMPT_CHARS: the longest message a member may send (default 4000).
 * @property {string} systemPrompt ASSISTANT_SYSTEM_PROMPT: the instruction sent first (a Russian default describing the site).
 */

/** The instruction the assistant gets unless ASSISTANT_SYSTEM_PROMPT replaces it. */
export const DEFAULT_ASSISTANT_SYSTEM_PROMPT =
  "Ты — вежливый помощник русскоязычного сообщества «Сходка», где участники покупают и продают игровые аккаунты, криптовалюту и услуги. " +
  "Отвечай по-русски, кратко и по делу. Советуй проводить сделки через гарант-сервис сайта и не переводить деньги незнакомцам напрямую. " +
  "Не проси у собеседника пароли и платёжные данные.";

/** @typedef {"fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent"} LogLevel */

/**
 * The names of the rate limits RATE_LIMITS may override; app/lib/rate-limit-table.ts defines
 * each one's default and checks at compile time that it lists exactly these.
 */
export const RATE_LIMIT_NAMES = /** @type {const} */ ([
  "loginAccountAddress",
  "loginAddress",
  "loginAccount",
  "registrations",
  "posts",
  "imageUploads",
  "comments",
  "wallPosts",
  "likes",
  "messages",
  "conversationStarts",
  "groups",
  "transfers",
  "deposits",
  "deals",
]);

/** @typedef {(typeof RATE_LIMIT_NAMES)[number]} RateLimitName */

/** Google's siteverify endpoint, the default of RECAPTCHA_VERIFY_URL. */
export const RECAPTCHA_GOOGLE_VERIFY_URL = "https://www.google.com/recaptcha/api/siteverify";

/** @type {readonly LogLevel[]} */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Variables whose values are never repeated in an error message. */
const SECRET_VARIABLES = new Set(["SESSION_SECRET", "DATABASE_URL", "SMTP_URL", "TELEGRAM_BOT_TOKEN", "RECAPTCHA_SECRET_KEY", "ASSISTANT_API_KEY"]);

/** Thrown by getConfig when variables are invalid; the message names each one and what is wrong. */
export class ConfigError extends Error {
  /** @param {string[]} problems one "NAME: what is wrong" line per variable */
  constructor(problems) {
    super(`Invalid configuration (see the README's configuration table):\n${problems.map((line) => `  ${line}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/**
 * A variable that may be unset: an empty value counts as unset, as in a shell's
 * `NAME= npm start`.
 * @template {z.ZodType} T
 * @param {T} schema
 */
const variable = (schema) => z.preprocess((value) => (value === "" ? undefined : value), schema);

/**
 * A whole number from `min` to `max`.
 * @param {number} min
 * @param {number} max
 * @param {string} message
 */
const wholeNumber = (min, max, message) => z.string().regex(/^\d+$/, message).transform(Number).pipe(z.number().min(min, message).max(max, message));

/**
 * An absolute URL with one of `protocols` (each with its colon, e.g. "https:").
 * @param {string[]} protocols
 * @param {string} message
 */
const urlWith = (protocols, message) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, message);

const TRUST_PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY in the forms Express accepts, checked here rather than when Express compiles it.
 * @param {string} value
 * @returns {boolean | number | string | undefined} undefined when invalid
 */
function trustProxyValue(value) {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    if (TRUST_PROXY_NAMES.has(entry)) return true;
    const [address, bits, ...rest] = entry.split("/");
    if (rest.length > 0 || !address || !isIP(address)) return false;
    if (bits === undefined) return true;
    const max = isIP(address) === 4 ? 32 : 128;
    return /^\d+$/.test(bits) && Number(bits) <= max;
  });
  return valid ? entries.join(",") : undefined;
}

const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/**
 * Parses IMAGE_ALLOWED_HOSTS: comma-separated hosts, each `example.com`, `example.com:8443`
 * (that port only) or `*.example.com` (any subdomain, not the apex); lower-cased. Unset or
 * empty gives []. Throws an Error naming the variable for an entry that is not a host.
 * @param {string | undefined} value
 * @returns {string[]}
 */
export function parseAllowedHosts(value) {
  if (!value?.trim()) return [];
  return value.split(",").map((entry) => {
    const host = entry.trim().toLowerCase();
    if (!HOST_PATTERN.test(host)) {
      throw new Error(`IMAGE_ALLOWED_HOSTS must list hosts such as "cdn.example.com" or "*.example.com" (got "${entry.trim()}")`);
    }
    return host;
  });
}

/**
 * Parses RATE_LIMITS: comma-separated `name=points/seconds` entries, e.g.
 * `transfers=60/60,registrations=20/3600`. Returns the overrides, or the first entry that is
 * not a known name with two whole numbers above 0.
 * @param {string} value
 * @returns {Partial<Record<RateLimitName, { points: number; durationS: number }>> | string}
 */
export function parseRateLimits(value) {
  /** @type {Partial<Record<RateLimitName, { points: number; durationS: number }>>} */
  const overrides = {};
  for (const entry of value.split(",")) {
    if (!entry.trim()) continue;
    const match = /^\s*([A-Za-z]+)\s*=\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(entry);
    const name = /** @type {RateLimitName | undefined} */ (match?.[1]);
    const points = Number(match?.[2]);
    const durationS = Number(match?.[3]);
    if (!match || !name || !RATE_LIMIT_NAMES.includes(name) || !(points > 0) || !(durationS > 0)) return entry.trim();
    overrides[name] = { points, durationS };
  }
  return overrides;
}

/** Every variable of the README's configuration table, with its default. */
const envSchema = z.object({
  NODE_ENV: variable(z.enum(["production", "development", "test"], { error: "must be production, development or test" }).default("development")),
  PORT: variable(wholeNumber(0, 65535, "must be a whole number from 0 to 65535").default(3000)),
  WEB_CONCURRENCY: variable(wholeNumber(1, 64, "must be a whole number from 1 to 64").default(1)),
  HOST: variable(z.string().default("0.0.0.0")),
  DATABASE_URL: variable(urlWith(["postgres:", "postgresql:"], "must be a postgres:// URL (unset it to use the embedded PGlite)").optional()),
  DATA_DIR: variable(z.string().default("./data")),
  BUILD_DIR: variable(z.string().default("./build")),
  SESSION_SECRET: variable(z.string().optional()),
  PUBLIC_URL: variable(urlWith(["http:", "https:"], "must be an http:// or https:// URL such as https://shodka.example").optional()),
  SITE_NAME: variable(z.string().default("Сходка")),
  SEED_DEMO: variable(z.enum(["0", "1"], { error: "must be 0 (start empty) or 1 (seed the demo community)" }).default("1")),
  TRUST_PROXY: variable(
    z
      .string()
      .transform((value, context) => {
        const parsed = trustProxyValue(value);
        if (parsed === undefined) {
          context.addIssue({
            code: "custom",
            message: "must be true, false, a number of hops, or comma-separated IP addresses, subnets, loopback, linklocal, uniquelocal",
          });
          return z.NEVER;
        }
        return parsed;
      })
      .default("loopback"),
  ),
  LOG_LEVEL: variable(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info")),
  PASSWORD_HASHING: variable(
    z
      .enum(["standard", "fast-insecure-for-tests"], { error: "must be standard (the default) or fast-insecure-for-tests (test runs only)" })
      .default("standard"),
  ),
  REALTIME_TRANSPORT: variable(z.enum(["ws", "sse"], { error: "must be ws or sse" }).default("ws")),
  REALTIME_SSE_PATH: variable(
    z
      .string()
      .regex(/^\/[^\s?#]*$/, 'must be a path starting with "/", without query or spaces')
      .transform((value) => value.replace(/\/+$/, "") || "/")
      .default("/api/sse"),
  ),
  REALTIME_AUTH_TIMEOUT_MS: variable(wholeNumber(1, 2 ** 31 - 1, "must be a whole number of milliseconds above 0").default(10_000)),
  REALTIME_MAX_CONNECTIONS_PER_ADDRESS: variable(wholeNumber(1, 1_000_000, "must be a whole number above 0").default(100)),
  REALTIME_MAX_CONNECTIONS_PER_MEMBER: variable(wholeNumber(1, 1_000_000, "must be a whole number above 0").default(20)),
  IMAGE_ALLOWED_HOSTS: variable(
    z
      .string()
      .transform((value, context) => {
        try {
          return parseAllowedHosts(value);
        } catch (error) {
          context.addIssue({ code: "custom", message: /** @type {Error} */ (error).message.replace(/^IMAGE_ALLOWED_HOSTS /, "") });
          return z.NEVER;
        }
      })
      .default([]),
  ),
  TELEGRAM_BOT_TOKEN: variable(z.string().optional()),
  TELEGRAM_INIT_DATA_MAX_AGE: variable(wholeNumber(1, 2 ** 31 - 1, "must be a whole number of seconds above 0").default(24 * 60 * 60)),
  TELEGRAM_INIT_DATA_MAX_SKEW: variable(wholeNumber(0, 2 ** 31 - 1, "must be a whole number of seconds, 0 or more").default(60)),
  RATE_LIMITS: variable(
    z
      .string()
      .transform((value, context) => {
        const parsed = parseRateLimits(value);
        if (typeof parsed === "string") {
          context.addIssue({ code: "custom", message: `must list name=points/seconds with names from ${RATE_LIMIT_NAMES.join(", ")} (got "${parsed}")` });
          return z.NEVER;
        }
        return parsed;
      })
      .default({}),
  ),
  SMTP_URL: variable(urlWith(["smtp:", "smtps:"], "must be an smtp:// or smtps:// URL").optional()),
  MAIL_FROM: variable(z.string().optional()),
  RECAPTCHA_SITE_KEY: variable(z.string().optional()),
  RECAPTCHA_SECRET_KEY: variable(z.string().optional()),
  RECAPTCHA_MIN_SCORE: variable(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, "must be a number from 0 to 1")
      .transform(Number)
      .pipe(z.number().max(1, "must be a number from 0 to 1"))
      .default(0.5),
  ),
  RECAPTCHA_VERIFY_URL: variable(urlWith(["http:", "https:"], "must be an http:// or https:// URL").default(RECAPTCHA_GOOGLE_VERIFY_URL)),
  ASSISTANT_BASE_URL: variable(urlWith(["http:", "https:"], "must be an http:// or https:// URL such as https://api.openai.com/v1").optional()),
  ASSISTANT_MODEL: variable(z.string().trim().optional()),
  ASSISTANT_API_KEY: variable(z.string().optional()),
  ASSISTANT_DAILY_QUOTA: variable(wholeNumber(1, 1_000_000, "must be a whole number above 0").default(50)),
  ASSISTANT_TIMEOUT_MS: variable(wholeNumber(1, 2 ** 31 - 1, "must be a whole number of milliseconds above 0").default(30_000)),
  ASSISTANT_MAX_PROMPT_CHARS: variable(wholeNumber(1, 1_000_000, "must be a whole number above 0").default(4000)),
  ASSISTANT_SYSTEM_PROMPT: variable(z.string().trim().optional()),
});

/**
 * Validates `env` and builds the configuration, with no side effects: a missing
 * SESSION_SECRET is left to getConfig. Throws ConfigError naming every invalid variable.
 * @param {Record<string, string | undefined>} env
 * @returns {Omit<AppConfig, "sessionSecret"> & { sessionSecret: string | undefined }}
 */
export function parseConfig(env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const raw = env[name];
      const shown = SECRET_VARIABLES.has(name) ? "" : ` (got "${raw}")`;
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  // Workers share one database: the embedded PGlite belongs to one process (docs/product/engineering.md#speed).
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL) {
    throw new ConfigError([
      `WEB_CONCURRENCY: more than 1 worker needs DATABASE_URL (PostgreSQL); the embedded PGlite serves one process (got "${env.WEB_CONCURRENCY}")`,
    ]);
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  return {
    nodeEnv: e.NODE_ENV,
    production: e.NODE_ENV === "production",
    port: e.PORT,
    webConcurrency: e.WEB_CONCURRENCY,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    buildDir: path.resolve(e.BUILD_DIR),
    sessionSecret: e.SESSION_SECRET,
    publicUrl,
    siteName: e.SITE_NAME,
    seedDemo: e.SEED_DEMO === "1",
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    passwordHashing: e.PASSWORD_HASHING,
    realtimeTransport: e.REALTIME_TRANSPORT,
    realtimeSsePath: e.REALTIME_SSE_PATH,
    realtimeAuthTimeoutMs: e.REALTIME_AUTH_TIMEOUT_MS,
    realtimeMaxConnectionsPerAddress: e.REALTIME_MAX_CONNECTIONS_PER_ADDRESS,
    realtimeMaxConnectionsPerMember: e.REALTIME_MAX_CONNECTIONS_PER_MEMBER,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN,
    telegramInitDataMaxAgeS: e.TELEGRAM_INIT_DATA_MAX_AGE,
    telegramInitDataMaxSkewS: e.TELEGRAM_INIT_DATA_MAX_SKEW,
    rateLimits: e.RATE_LIMITS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `"${e.SITE_NAME}" <no-reply@${new URL(publicUrl).hostname}>`,
    imageAllowedHosts: e.IMAGE_ALLOWED_HOSTS,
    recaptchaSiteKey: e.RECAPTCHA_SITE_KEY,
    recaptchaSecretKey: e.RECAPTCHA_SECRET_KEY,
    recaptchaMinScore: e.RECAPTCHA_MIN_SCORE,
    recaptchaVerifyUrl: e.RECAPTCHA_VERIFY_URL,
    assistant: {
      enabled: Boolean(e.ASSISTANT_BASE_URL && e.ASSISTANT_MODEL),
      baseUrl: (e.ASSISTANT_BASE_URL ?? "").replace(/\/+$/, ""),
      apiKey: e.ASSISTANT_API_KEY,
      model: e.ASSISTANT_MODEL ?? "",
      dailyQuota: e.ASSISTANT_DAILY_QUOTA,
      timeoutMs: e.ASSISTANT_TIMEOUT_MS,
      maxPromptChars: e.ASSISTANT_MAX_PROMPT_CHARS,
      systemPrompt: e.ASSISTANT_SYSTEM_PROMPT || DEFAULT_ASSISTANT_SYSTEM_PROMPT,
    },
  };
}

const CACHE = Symbol.for("shodka.config");
/** @type {typeof globalThis & { [CACHE]?: AppConfig }} */
const store = globalThis;

/**
 * The process configuration: validated from process.env on the first call and shared by every
 * copy of this module afterwards. Given `env` (tests, scripts), builds a fresh configuration
 * from it instead, leaving the process's alone. Throws ConfigError naming every invalid
 * variable. Nothing is written here: when SESSION_SECRET is unset, the secret is read from
 * DATA_DIR/session-secret (created, with DATA_DIR, the first time) when first used.
 * @param {Record<string, string | undefined>} [env]
 * @returns {AppConfig}
 */
export function getConfig(env) {
  if (env === undefined || env === process.env) {
    store[CACHE] ??= withSecret(parseConfig(process.env));
    return store[CACHE];
  }
  return withSecret(parseConfig(env));
}

/**
 * `parsed` with its session secret, generated lazily when SESSION_SECRET is unset.
 * @param {ReturnType<typeof parseConfig>} parsed
 * @returns {AppConfig}
 */
function withSecret(parsed) {
  const { sessionSecret, ...rest } = parsed;
  if (sessionSecret !== undefined) return { ...rest, sessionSecret };
  /** @type {string | undefined} */
  let generated;
  return Object.defineProperty(/** @type {AppConfig} */ ({ ...rest }), "sessionSecret", {
    enumerable: true,
    configurable: true,
    get: () => (generated ??= readOrCreateSecret(rest.dataDir)),
  });
}

/**
 * Reads DATA_DIR/session-secret, writing a random one the first time (never committed).
 * @param {string} dataDir
 */
function readOrCreateSecret(dataDir) {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
