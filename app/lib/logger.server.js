// @ts-check
/**
 * The one structured logger (issue 15; docs/decisions/0013): pino, at LOG_LEVEL, JSON lines
 * in production and pino-pretty's lines in development when it is installed. Plain
 * JavaScript like config.server.js, so server/index.js (its request log) and the built app
 * share one logger; the root logger is kept on globalThis for the same reason.
 *
 * Nothing secret reaches the log: requests are logged as method, path with sensitive query
 * values masked, status and time (never headers, so no cookies, Authorization or CSRF
 * tokens); errors keep their message, code and stack but not SQL parameters or row values;
 * fields named like passwords and tokens are censored wherever they appear one level deep.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import { pino } from "pino";
import { getConfig } from "./config.server.js";

/** @typedef {import("pino").Logger} Logger */

/** What replaces a secret in the log. */
export const REDACTED = "[redacted]";

/** Field names censored at the top level and one level down (pino's `redact`). */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "apiToken",
  "secret",
  "sessionSecret",
  "csrf",
  "authorization",
  "cookie",
  "initData",
];

/** Paths pino censors: the secret keys anywhere near the top, and request headers should one ever be logged. */
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
];

/** Query parameters whose values are masked in logged URLs: `api-token` of event streams, mailed link tokens, and the like. */
const SECRET_QUERY = /token|password|secret|csrf|key|code|signature|init_?data|auth/i;

/**
 * `url` (a path with an optional query, as in a request line) with the values of secret
 * query parameters replaced by [redacted]: `/api/sse?api-token=abc&id=1` →
 * `/api/sse?api-token=[redacted]&id=1`.
 * @param {string} url
 * @returns {string}
 */
export function redactUrl(url) {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals === -1 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed name is matched as it is.
      }
      return equals !== -1 && SECRET_QUERY.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
  return `${url.slice(0, start)}?${query}`;
}

/** Properties of an error worth logging: codes and where a database error happened, never values. */
const ERROR_FIELDS = ["code", "status", "statusCode", "errno", "syscall", "severity", "constraint_name", "table_name", "column_name", "schema_name", "routine"];

/**
 * The `err` serializer: type, message, stack, a few code-like fields and the cause, but no
 * SQL parameters. Drizzle's query errors put `params: …` in their message (and so in their
 * stack); postgres.js errors carry `parameters`, and `detail` quotes row values
 * ("Key (email)=(…) already exists"): all of these are left out.
 * @param {unknown} error
 * @param {number} [depth]
 * @returns {Record<string, unknown>}
 */
export function serializeError(error, depth = 0) {
  if (!(error instanceof Error)) return { message: String(error) };
  const message = error.message.replace(/\nparams: [\s\S]*$/, "");
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  /** @type {Record<string, unknown>} */
  const result = { type: error.name, message, stack: [`${error.name}: ${message}`, ...frames].join("\n") };
  const fields = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (error));
  for (const key of ERROR_FIELDS) {
    const value = fields[key];
    if (typeof value === "string" || typeof value === "number") result[key] = value;
  }
  if (error.cause !== undefined && depth < 3) result.cause = serializeError(error.cause, depth + 1);
  return result;
}

/**
 * @typedef {object} LoggerOptions
 * @property {import("./config.server.js").LogLevel} level
 * @property {boolean} [pretty] pino-pretty's coloured lines (development), when it is installed.
 * @property {import("pino").DestinationStream} [destination] where lines go (stdout by default; tests capture them).
 */

/**
 * A root logger with the redaction and the error serializer above.
 * @param {LoggerOptions} options
 * @returns {Logger}
 */
export function createLogger({ level, pretty = false, destination }) {
  /** @type {import("pino").LoggerOptions} */
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError, error: serializeError },
    base: { pid: process.pid },
  };
  return pino(options, destination ?? (pretty ? prettyStream() : undefined));
}

/** pino-pretty as a synchronous stream, or undefined (JSON lines) when it is not installed, e.g. after `npm ci --omit=dev`. */
function prettyStream() {
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty");
    return pretty({ colorize: true, sync: true, translateTime: "HH:MM:ss.l", ignore: "pid,hostname" });
  } catch {
    return undefined;
  }
}

const ROOT = Symbol.for("shodka.logger");
const SCOPE = Symbol.for("shodka.logger.request");
/** @type {typeof globalThis & { [ROOT]?: Logger, [SCOPE]?: AsyncLocalStorage<Logger> }} */
const store = globalThis;

/** The process's root logger, at LOG_LEVEL; pretty when NODE_ENV=development. */
export const logger = (store[ROOT] ??= (() => {
  const config = getConfig();
  return createLogger({ level: config.logLevel, pretty: config.nodeEnv === "development" });
})());

/** The request logger of the code running now, across awaits (server/http-logger.js sets it). */
const requestScope = (store[SCOPE] ??= new AsyncLocalStorage());

/**
 * Runs `next` (and everything it starts) with `log` as the current logger.
 * @template T
 * @param {Logger} log
 * @param {() => T} next
 * @returns {T}
 */
export function runWithRequestLogger(log, next) {
  return requestScope.run(log, next);
}

/**
 * The logger of the request being served, bound to its `reqId`, or the root logger outside a
 * request (the scheduler, start-up). For code that has no load context, such as the /api
 * error mapper; loaders and actions can use `context.log`, the same logger.
 * @returns {Logger}
 */
export function currentLogger() {
  return requestScope.getStore() ?? logger;
}
