// The custom Node server: static files, compression, security headers, request logging and
// graceful shutdown around the React Router build (docs/product/engineering.md#layout; issue 2).
// Plain JavaScript so production starts with `node server/index.js` and no compiler.
import { randomBytes } from "node:crypto";
import path from "node:path";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import morgan from "morgan";
import { shouldCompress } from "./compression.js";

const DEVELOPMENT = process.env.NODE_ENV !== "production";
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? "0.0.0.0";
const DATA_DIR = path.resolve(process.env.DATA_DIR ?? "./data");
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "./build");

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", process.env.TRUST_PROXY ?? "loopback");

app.use(compression({ filter: shouldCompress }));

// The Content-Security-Policy nonce of inline scripts; development runs without a CSP
// (Vite injects its own scripts), so it gets no nonce either.
app.use((_req, res, next) => {
  res.locals.cspNonce = DEVELOPMENT ? "" : randomBytes(16).toString("base64");
  next();
});
// reCAPTCHA v3 (issue 6; app/lib/recaptcha/): Google's script and its frame are allowed only
// when both keys are configured, as Google documents for a CSP.
const RECAPTCHA_ON = Boolean(process.env.RECAPTCHA_SITE_KEY && process.env.RECAPTCHA_SECRET_KEY);
const RECAPTCHA_SCRIPT_SRC = RECAPTCHA_ON ? ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"] : [];
const RECAPTCHA_FRAME_SRC = RECAPTCHA_ON ? { "frame-src": ["'self'", "https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"] } : {};
app.use(
  helmet({
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
            "img-src": ["'self'", "data:", "blob:", "https:"],
            "connect-src": ["'self'", "ws:", "wss:"],
            "frame-ancestors": ["'self'", "https://web.telegram.org", "https://*.telegram.org"],
            "upgrade-insecure-requests": null,
            ...RECAPTCHA_FRAME_SRC,
          },
        },
  }),
);

// Event streams are opened with `?api-token=…` (docs/product/realtime.md#server-sent-events): keep the token out of the log.
morgan.token("url", (req) => (req.originalUrl ?? req.url).replace(/([?&]api-token=)[^&]*/g, "$1…"));
app.use(morgan(DEVELOPMENT ? "dev" : "short", { skip: (req) => req.url.startsWith("/assets/") }));

// Browsers ask for /favicon.ico even when the page names an SVG icon.
app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));
app.use("/uploads", express.static(path.join(DATA_DIR, "uploads"), { maxAge: "1d", fallthrough: true }));

// Request bodies are read whole by the actions, so cap them: a post of 50 000 Cyrillic
// characters is about 300 KB form-encoded; 1 MiB leaves room and stops memory attacks.
// Bodies of unknown length (chunked) are refused: browsers always send Content-Length.
const MAX_BODY_BYTES = 1024 * 1024;
// The settings page's avatar form uploads images up to 10 MB (docs/product/limits.md#uploads-and-images), plus the
// multipart framing and the form's other fields; its action refuses files over 10 MB itself.
const UPLOAD_PATHS = new Set(["/profile/settings", "/profile/settings.data"]);
const MAX_UPLOAD_BODY_BYTES = 10 * 1024 * 1024 + 64 * 1024;
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
  if (UPLOAD_PATHS.has(req.path)) {
    if (Number(declared) > MAX_UPLOAD_BODY_BYTES) return refuse(413, "payload_too_large", "Файл слишком большой: не больше 10 МБ.");
    return next();
  }
  if (Number(declared) > MAX_BODY_BYTES) {
    return refuse(413, "payload_too_large", "Слишком большой запрос: не больше 1 МБ.");
  }
  next();
});

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
  // Hashed file names never change content: cache them for a year.
  app.use("/assets", express.static(path.join(BUILD_DIR, "client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(BUILD_DIR, "client"), { maxAge: "1h" }));
  build = await import(path.join(BUILD_DIR, "server/index.js"));
  app.use(build.app);
}

await build.start();

const server = app.listen(PORT, HOST, () => {
  const shown = HOST === "0.0.0.0" ? "localhost" : HOST;
  console.log(`Server is listening on http://${shown}:${PORT}`);
});
// The realtime websocket at /api/ws shares the port (server-sent events are a route).
build.attachRealtime(server);

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received: finishing requests and closing the database.`);
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
