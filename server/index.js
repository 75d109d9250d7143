// @ts-check
// The custom Node server: static files, compression, security headers, request logging and
// graceful shutdown around the React Router build (docs/product/engineering.md#layout; issue 2).
// Plain JavaScript so production starts with `node server/index.js` and no compiler.
// Configuration comes from app/lib/config.server.js, the one module that reads the environment
// (docs/decisions/0013); logging from app/lib/logger.server.js, imported once it is valid.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import helmet from "helmet";
import { ConfigError, getConfig } from "../app/lib/config.server.js";
import { shouldCompress } from "./compression.js";

/** @type {import("../app/lib/config.server.js").AppConfig} */
let config;
try {
  config = getConfig();
} catch (error) {
  // Fail fast with the list of invalid variables, not a stack trace.
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const { logger } = await import("../app/lib/logger.server.js");

// WEB_CONCURRENCY=N (N > 1): this primary process forks N workers that run the server below
// and share the port through node:cluster; realtime frames cross between them by the
// database's pub/sub (docs/product/engineering.md#speed; issue 12). The primary serves nothing.
if (config.webConcurrency > 1 && cluster.isPrimary) {
  const { runPrimary } = await import("./primary.js");
  await runPrimary(config.webConcurrency, { cluster, logger, signals: process, exit: (code) => process.exit(code) });
}

const { logWhenSent, requestIdFor, requestLogging, unhandledErrors, REQUEST_ID_HEADER } = await import("./http-logger.js");

const DEVELOPMENT = !config.production;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.trustProxy);

// First, so that every response carries X-Request-Id and everything after logs with it. Static
// assets are not logged, nor in development Vite's modules.
const UNLOGGED = DEVELOPMENT ? /^\/(assets\/|@|node_modules\/|app\/)/ : /^\/assets\//;
app.use(requestLogging(logger, { ignore: (req) => UNLOGGED.test(req.url ?? "") }));

app.use(compression({ filter: shouldCompress }));

// The Content-Security-Policy nonce of inline scripts; development runs without a CSP
// (Vite injects its own scripts), so it gets no nonce either.
app.use((_req, res, next) => {
  res.locals.cspNonce = DEVELOPMENT ? "" : randomBytes(16).toString("base64");
  next();
});
// reCAPTCHA v3 (issue 6; app/lib/recaptcha/): Google's script and its frame are allowed only
// when both keys are configured, as Google documents for a CSP.
const RECAPTCHA_ON = Boolean(config.recaptchaSiteKey && config.recaptchaSecretKey);
const RECAPTCHA_SCRIPT_SRC = RECAPTCHA_ON ? ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"] : [];
const RECAPTCHA_FRAME_SRC = RECAPTCHA_ON ? { "frame-src": ["'self'", "https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"] } : {};
const securityHeaders = helmet({
  // The site also runs inside Telegram's web client as a Mini App, which frames it.
  xFrameOptions: false,
  crossOriginEmbedderPolicy: false,
  // "no-referrer" makes Chromium send `Origin: null` on form posts, which React Router's
  // action CSRF check refuses; the browsers' default policy keeps the origin.
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  contentSecurityPolicy: DEVELOPMENT
    ? false
    : {
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", "'strict-dynamic'", (_req, res) => `'nonce-${res.locals.cspNonce}'`, "https://telegram.org", ...RECAPTCHA_SCRIPT_SRC],
          "style-src": ["'self'", "'unsafe-inline'"],
          // Pictures come only from this site: post images go through /api/image (issue 13 item 11).
          "img-src": ["'self'", "data:", "blob:"],
          "connect-src": ["'self'", "ws:", "wss:"],
          "frame-ancestors": ["'self'", "https://web.telegram.org", "https://*.telegram.org"],
          "upgrade-insecure-requests": null,
          ...RECAPTCHA_FRAME_SRC,
        },
      },
});
app.use(securityHeaders);

// Browsers ask for /favicon.ico even when the page names another icon.
app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon-32.png"));
app.use("/uploads", express.static(path.join(config.dataDir, "uploads"), { maxAge: "1d", fallthrough: true }));

// Request bodies are read whole by the actions, so cap them: a post of 50 000 Cyrillic
// characters is about 300 KB form-encoded; 1 MiB leaves room and stops memory attacks.
// Bodies of unknown length (chunked) are refused: browsers always send Content-Length.
const MAX_BODY_BYTES = 1024 * 1024;
// Upload forms, each with its largest file (docs/product/limits.md; issue 11) plus room for the
// multipart framing and the form's other fields; their actions refuse larger files themselves.
// The avatar form and a track's cover take images up to 10 MB, /admin/music audio up to 30 MB.
const MB = 1024 * 1024;
const UPLOAD_LIMITS = [
  { path: /^\/profile\/settings(\.data)?$/, bytes: 10 * MB, message: "Файл слишком большой: не больше 10 МБ." },
  // The post form's picture field without JavaScript, beside up to 50 000 characters of text
  // (app/routes/posts/attached-image.server.ts); only multipart bodies carry a file, the rest keep 1 MiB.
  {
    path: /^\/(posts\/new(\/preview)?|post\/[^/]+\/edit)(\.data)?$/,
    bytes: 11 * MB,
    message: "Слишком большой запрос: изображение не больше 10 МБ.",
    multipartOnly: true,
  },
  // A picture sent in a chat message (issue 14, app/routes/conversations/actions.server.ts) beside
  // up to 4000 characters of text; only multipart bodies carry a file, the rest keep 1 MiB.
  {
    path: /^\/profile\/conversations(\.data)?$/,
    bytes: 10 * MB,
    message: "Слишком большой запрос: изображение не больше 10 МБ.",
    multipartOnly: true,
  },
  // Pictures uploaded into posts (app/routes/api/uploads/images.ts).
  { path: /^\/api\/uploads\/images$/, bytes: 10 * MB, message: "Файл слишком большой: не больше 10 МБ." },
  { path: /^\/admin\/music(\.data)?$/, bytes: 30 * MB, message: "Файл слишком большой: не больше 30 МБ." },
  { path: /^\/admin\/music\/[^/]+(\.data)?$/, bytes: 10 * MB, message: "Файл слишком большой: не больше 10 МБ." },
];
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const declared = req.headers["content-length"];
  const refuse = (status, code, message) =>
    req.path.startsWith("/api/")
      ? res.status(status).json({ success: false, errors: { code, message } })
      : res.status(status).type("text/plain; charset=utf-8").send(message);
  if (declared === undefined && req.headers["transfer-encoding"]) {
    return refuse(411, "length_required", "Запрос без указания длины не принимается.");
  }
  const multipart = /^multipart\/form-data/i.test(req.headers["content-type"] ?? "");
  const upload = UPLOAD_LIMITS.find((limit) => limit.path.test(req.path) && (multipart || !limit.multipartOnly));
  if (upload) {
    if (Number(declared) > upload.bytes + 64 * 1024) return refuse(413, "payload_too_large", upload.message);
    return next();
  }
  if (Number(declared) > MAX_BODY_BYTES) {
    return refuse(413, "payload_too_large", "Слишком большой запрос: не больше 1 МБ.");
  }
  next();
});

const trustProxy = app.get("trust proxy fn");

/**
 * The client address of a raw request (a websocket upgrade, which Express never sees), by
 * proxy-addr's rule that gives req.ip: walk from the socket's peer back along X-Forwarded-For
 * while the hop is a trusted proxy (TRUST_PROXY).
 */
function clientAddress(request) {
  const forwarded = String(request.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const chain = [request.socket.remoteAddress ?? "unknown", ...forwarded];
  for (let i = 0; i < chain.length - 1; i++) if (!trustProxy(chain[i], i)) return chain[i];
  return chain[chain.length - 1];
}

let build;
if (DEVELOPMENT) {
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(viteDevServer.middlewares);
  build = await viteDevServer.ssrLoadModule("./server/app.ts");
  app.use(async (req, res, next) => {
    try {
      const source = await viteDevServer.ssrLoadModule("./server/app.ts");
      return source.app(req, res, next);
    } catch (error) {
      if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  // The build compressed its scripts, styles and pictures beside them (vite.config.ts, decision 0042):
  // a browser gets the Brotli or gzip file as it accepts, and the compression middleware leaves an
  // encoded answer alone. Hashed file names never change content: cache them for a year.
  // Only GET and HEAD reach it: it labels the answer's encoding before serve-static looks, and a
  // request serve-static passes on (another method) would take that label to the router's answer.
  const precompressed = (dir, serveStatic) => {
    const files = expressStaticGzip(dir, { enableBrotli: true, orderPreference: ["br", "gzip"], index: false, serveStatic });
    return (req, res, next) => (req.method === "GET" || req.method === "HEAD" ? files(req, res, next) : next());
  };
  app.use("/assets", precompressed(path.join(config.buildDir, "client/assets"), { immutable: true, maxAge: "1y" }));
  // Every public file has an extension; pages have none, so they skip the file system (a stat per page request).
  const publicFiles = precompressed(path.join(config.buildDir, "client"), { maxAge: "1h" });
  app.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  build = await import(path.join(config.buildDir, "server/index.js"));
  app.use(build.app);
}

app.use(unhandledErrors);

try {
  await build.start();
} catch (error) {
  logger.fatal({ err: error }, "start-up failed: the database could not be opened, migrated or seeded");
  process.exit(1);
}

// Visitors' stored pages (docs/decisions/0033), members' polled calls (docs/decisions/0035) and
// event streams (docs/decisions/0037) are answered before Express: with the headers helmet gives every response, taken from it once
// with a stand-in nonce, and the request log's line. Development goes through Vite.
const NONCE_STAND_IN = "\u0000nonce\u0000";
/** @type {Record<string, string>} */
const pageHeaders = {};
securityHeaders(
  /** @type {any} */ ({}),
  /** @type {any} */ ({
    locals: { cspNonce: NONCE_STAND_IN },
    setHeader: (/** @type {string} */ name, /** @type {string} */ value) => (pageHeaders[name] = value),
    removeHeader: (/** @type {string} */ name) => delete pageHeaders[name],
  }),
  () => {},
);
const POLICY = "Content-Security-Policy";

const server = createServer((req, res) => {
  if (!DEVELOPMENT && (req.method === "GET" || req.method === "HEAD")) {
    const startedAt = Date.now();
    // Made only for a request answered here: Express makes its own for the rest.
    const answering = () => {
      const cspNonce = randomBytes(16).toString("base64");
      const reqId = requestIdFor(req, trustProxy);
      const ip = clientAddress(req);
      const headers = { [REQUEST_ID_HEADER]: reqId, ...pageHeaders };
      if (headers[POLICY]) headers[POLICY] = headers[POLICY].replace(NONCE_STAND_IN, cspNonce);
      logWhenSent(logger, req, res, { reqId, ip, startedAt });
      return { cspNonce, clientIp: ip, headers };
    };
    try {
      if (build.answerFromPageCache(req, res, answering) || build.answerMemberCall(req, res, answering) || build.answerEventStream(req, res, answering)) return;
    } catch (error) {
      logger.error({ err: error }, "answering before Express failed");
      if (res.headersSent) return void req.socket.destroy();
    }
  }
  app(req, res);
});
server.listen(config.port, config.host, () => {
  const shown = config.host === "0.0.0.0" ? "localhost" : config.host;
  // tests/setup/server.ts waits for "Server is listening"; tests/api/production-build.test.ts
  // reads the mode.
  logger.info({ nodeEnv: config.nodeEnv }, `Server is listening on http://${shown}:${config.port}`);
  if (config.passwordHashing !== "standard")
    logger.warn("PASSWORD_HASHING=fast-insecure-for-tests: new password hashes are cheap to guess; never run a real site so");
});
// Idle keep-alive connections stay 65 s, longer than browsers' and load balancers' own idle
// timers (60 s is common), so the client always closes first: with Node's 5 s default a request
// sent on a connection the server was closing failed with ECONNRESET. headersTimeout must be
// longer still (tests/api/keep-alive.test.ts).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
// The realtime websocket at /api/ws shares the port (server-sent events are a route); its
// per-address connection cap sees the client's address as req.ip does.
build.attachRealtime(server, { clientAddress });

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal} received: finishing requests and closing the database.`);
  const forced = setTimeout(() => process.exit(1), 10_000);
  forced.unref();
  // Long-lived realtime connections first: websockets close with 1001 and event streams end,
  // so server.close() does not wait for them.
  build.closeRealtime();
  server.close(async () => {
    try {
      await build.stop();
    } finally {
      process.exit(0);
    }
  });
  // Ended event streams leave keep-alive connections that only become idle afterwards.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 50).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
