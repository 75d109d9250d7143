/**
 * The React Router request handler, built by Vite into build/server/index.js (and loaded
 * through Vite in development). It hands every loader and action the database, the
 * configuration, the caller's address and the request's id and logger (app/lib/context.ts).
 *
 * Requests are read here rather than by @react-router/express's adapter, so that one place
 * refuses input no route may meet (issue 13 item 3, app/lib/input-guard.ts): a NUL or a lone
 * surrogate in the path, the query or the body answers 400 `invalid_text` — JSON on /api, a
 * Russian message on pages — before any loader or action runs.
 */
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type AppLoadContext } from "react-router";
import express from "express";
import Negotiator from "negotiator";
// Types only: req.id and req.log, which server/http-logger.js sets.
import type {} from "pino-http";
// A static import: given a function instead, React Router re-derives the whole route
// table on every request (several ms each). Development reloads this module on change.
import * as build from "virtual:react-router/server-build";
import type { Db } from "~/db/client.server";
import { closeDatabase, getDatabase } from "~/db/database.server";
import { flushImpressions, queueImpressions } from "~/domain/ads/impression-buffer.server";
import { flushViews, queueView, visitorKeyOf } from "~/domain/posts/view-buffer.server";
import { csrfTokenForCookies, csrfTokenForCookiesNow } from "~/lib/csrf.server";
import {
  adsShownIn,
  cutPage,
  uncutPage,
  fillPageBytes,
  gzipPageBytes,
  holdsToken,
  isStorable,
  PAGE_CACHE_ENVELOPE,
  PageCache,
  pageCacheKey,
  pageEtag,
  storedHeaders,
  writeMayChangePublicPages,
  type CachedPage,
} from "~/lib/page-cache.server";
import { pubSubOf } from "~/lib/realtime/pubsub.server";
import { getConfig } from "~/lib/config.server";
import { reportUnexpectedErrorsTo } from "~/lib/errors";
import { currentLogger, logger } from "~/lib/logger.server";
import { bodyHoldsForbiddenText, INVALID_TEXT_CODE, INVALID_TEXT_MESSAGE, urlHoldsForbiddenText } from "~/lib/input-guard";
import { closeEventStreams } from "~/lib/realtime/sse.server";
import { attachWebSocketServer, type WebSocketTransport } from "~/lib/realtime/ws.server";
import "~/lib/context";
import { serveEventStream } from "./event-stream";
import { sendResponse } from "./send-response";

export { answerEventStream } from "./event-stream";
export { answerMemberCall } from "./member-calls";

export const app = express.Router();

// A 500 from an /api call is logged with the request's id.
reportUnexpectedErrorsTo((error) => currentLogger().error({ err: error }, "an /api call failed"));

const handleRequest = createRequestHandler(build, getConfig().nodeEnv);

// The build this process serves, for the browser's hourly update check
// (docs/product/routes.md#navigation-behaviour; app/components/layout/app-updates.tsx). Never cached.
app.get("/api/build", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ version: build.assets.version });
});

// Server-sent events beside the router (server/event-stream.ts): the same checks, written straight
// to Node's response. Production answers them before Express (answerEventStream); development's
// requests come here through Vite.
app.get("/api/sse", async (req, res, next) => {
  try {
    await serveEventStream((await getDatabase()).db, { url: req.originalUrl, clientAddress: req.ip ?? "unknown" }, res);
  } catch (error) {
    next(error);
  }
});

app.use(async (req, res, next) => {
  let renderDone: (() => void) | undefined;
  try {
    const pageKey = pageCacheKey({
      method: req.method,
      url: req.originalUrl,
      cookieHeader: req.headers.cookie,
      hasAuthorization: req.headers.authorization !== undefined,
    });
    let cached = pageKey ? pageCache.answerable(pageKey) : undefined;
    const underWay = pageKey && !cached ? pageCache.renderUnderWay(pageKey) : undefined;
    if (underWay) {
      await underWay;
      cached = pageCache.get(pageKey!);
    }
    // Before anything is awaited, so that readers arriving together find this render under way.
    if (pageKey && !cached && req.method === "GET") renderDone = pageCache.beginRender(pageKey);
    if (cached) {
      const [token, setCookie] = await csrfTokenForCookies(req.headers.cookie);
      countAnswer(req.originalUrl, req.ip ?? "unknown", req.headers["user-agent"], cached);
      return answerPage(req, res, cached, token, setCookie, res.locals.cspNonce as string, "HIT");
    }

    const url = requestUrl(req);
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    // server/index.js has capped the body's size (Content-Length required), so reading it whole is bounded.
    const body = hasBody ? await readBody(req) : null;
    if (urlHoldsForbiddenText(url) || (body && (await bodyHoldsForbiddenText(req.get("Content-Type") ?? null, body)))) {
      return refuseForbiddenText(url, res);
    }
    const headers = requestHeaders(req);
    // A cacheable page is rendered with the reader's CSRF token fixed beforehand, so the page can
    // be stored with that token as a placeholder and its cookie is issued here, not by the loader.
    const csrf = pageKey ? await csrfTokenForCookies(req.headers.cookie) : null;
    if (csrf?.[1]) headers.set("Cookie", withCookie(req.headers.cookie, csrf[1].split(";")[0]!));
    const request = new Request(url.href, {
      method: req.method,
      headers,
      signal: controller.signal,
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    const { db } = await getDatabase();
    // server/http-logger.js gives every request its id and logger; the fallback serves a
    // handler mounted without it.
    const requestId = String(req.id ?? "");
    const log = req.log ?? logger.child({ reqId: requestId });
    const context: AppLoadContext = { db, config: getConfig(), clientIp: req.ip ?? "unknown", cspNonce: res.locals.cspNonce as string, requestId, log };
    const generation = pageCache.generation;
    const response = await handleRequest(request, context);
    // Anything but GET and HEAD may have written: stored visitor pages are stale, in every process,
    // unless the write is one no visitor page shows (a chat message, a read marker).
    if (hasBody && writeMayChangePublicPages(url.pathname)) announceWrite(db);
    // A HEAD answer has no body to store; a GET stores what HEAD requests are answered from too.
    if (!pageKey || !csrf || req.method !== "GET" || !isStorable(response.status, response.headers)) {
      renderDone?.();
      if (csrf?.[1]) res.append("Set-Cookie", csrf[1]);
      return await sendResponse(res, response);
    }
    const text = await response.text();
    const cut = cutPage(text, csrf[0], res.locals.cspNonce as string);
    const page: CachedPage = {
      status: response.status,
      headers: storedHeaders(response.headers),
      ...(cut ?? uncutPage(text)),
      adIds: adsShownIn(text),
      generation,
    };
    // A page still holding something of this reader's token is answered to them alone.
    if (cut) pageCache.store(pageKey, page);
    renderDone?.();
    answerPage(req, res, page, csrf[0], csrf[1], res.locals.cspNonce as string, "MISS");
  } catch (error) {
    next(error);
  } finally {
    renderDone?.();
  }
});

/** This process's visitor pages (app/lib/page-cache.server.ts). */
const pageCache = new PageCache();
let listeningForWrites = false;
let announcing = false;
let announceAgain = false;

/**
 * Forgets the stored visitor pages here at once, and in every process through the realtime
 * pub/sub; announcements made while one is on its way are folded into one more.
 */
function announceWrite(db: Db): void {
  pageCache.invalidate();
  if (announcing) {
    announceAgain = true;
    return;
  }
  announcing = true;
  void (async () => {
    try {
      do {
        announceAgain = false;
        await pubSubOf(db).publish({ to: PAGE_CACHE_ENVELOPE });
      } while (announceAgain);
    } catch (error) {
      logger.error({ err: error }, "the page cache could not tell other processes of a write");
    } finally {
      announcing = false;
    }
  })();
}

/**
 * Answers a visitor's GET or HEAD from a stored page straight on Node's response, before Express
 * (server/index.js; docs/decisions/0033-visitor-pages-before-express.md): no middleware, no
 * router, no awaiting. `answering()` is called once the page will be answered, and gives what
 * every page answer carries (the request id and security headers, with `cspNonce` in the policy)
 * and the reader's address. Returns false, having written nothing and without calling it, when
 * the request is not for a stored page or its `csrf` cookie needs the library's reading
 * (csrfTokenForCookiesNow); Express answers it then.
 */
export function answerFromPageCache(
  req: IncomingMessage,
  res: ServerResponse,
  answering: () => { cspNonce: string; clientIp: string; headers: OutgoingHttpHeaders },
): boolean {
  const url = req.url ?? "/";
  const key = pageCacheKey({ method: req.method ?? "", url, cookieHeader: req.headers.cookie, hasAuthorization: req.headers.authorization !== undefined });
  const page = key ? pageCache.answerable(key) : undefined;
  if (!page) return false;
  const csrf = csrfTokenForCookiesNow(req.headers.cookie);
  if (!csrf) return false;
  const { cspNonce, clientIp, headers } = answering();
  res.setHeaders(new Map(Object.entries(headers) as [string, string][]));
  countAnswer(url, clientIp, req.headers["user-agent"], page);
  answerPage(req, res, page, csrf[0], csrf[1], cspNonce, "HIT");
  return true;
}

/**
 * Counts what answering a stored page shows, as rendering it would have: a post's view
 * (docs/product/engineering.md#speed) and the impressions of the page's ads.
 */
function countAnswer(url: string, clientIp: string, userAgent: string | undefined, page: CachedPage): void {
  const postId = /^\/post\/(\d+)(?:\.data)?(?:\?|$)/.exec(url)?.[1];
  if (!postId && page.adIds.length === 0) return;
  getDatabase().then(
    ({ db }) => {
      if (postId) queueView(db, Number(postId), visitorKeyOf(null, clientIp, userAgent ?? null));
      if (page.adIds.length > 0) queueImpressions(db, page.adIds);
    },
    (error: unknown) => logger.error({ err: error }, "a cached page's view could not be counted"),
  );
}

/**
 * Sends a visitor page with the reader's token and this response's nonce put in, gzipped when
 * the reader accepts it (from the page's parts compressed when stored, page-gzip.server.ts), or
 * 304 when the reader's copy is current; whether the page was just rendered (MISS) or stored
 * (HIT). The 304 carries no Content-Security-Policy: a browser keeps its stored copy and updates
 * the stored headers from the 304, so a policy here would pair this response's nonce with the
 * stored copy's scripts and block every one of them.
 */
function answerPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  token: string,
  setCookie: string | null,
  cspNonce: string,
  outcome: "HIT" | "MISS",
): void {
  const etag = pageEtag(page, token);
  const common = { ETag: etag, "Cache-Control": "no-cache", "X-Page-Cache": outcome, Vary: "Accept-Encoding" };
  if ((!setCookie || !holdsToken(page)) && req.headers["if-none-match"] === etag) {
    res.removeHeader("Content-Security-Policy");
    res.setHeaders(new Map(Object.entries(common)));
    res.statusCode = 304;
    res.end();
    return;
  }
  for (const [name, value] of page.headers) res.appendHeader(name, value);
  // A JSON call carries no token: its reader needs no cookie for one.
  if (setCookie && holdsToken(page)) res.appendHeader("Set-Cookie", setCookie);
  const gzip = new Negotiator(req).encoding(["gzip", "identity"]) === "gzip";
  const body = gzip ? gzipPageBytes(page, token, cspNonce) : fillPageBytes(page, token, cspNonce);
  res.setHeaders(new Map(Object.entries({ ...common, ...(gzip ? { "Content-Encoding": "gzip" } : {}), "Content-Length": String(body.length) })));
  res.statusCode = page.status;
  res.end(body);
}

/** `cookieHeader` with the cookie `pair` ("name=value") in place of any of the same name. */
function withCookie(cookieHeader: string | undefined, pair: string): string {
  const name = pair.slice(0, pair.indexOf("="));
  const kept = (cookieHeader ?? "").split(";").filter((part) => part.trim() !== "" && part.trim().split("=")[0] !== name);
  return [...kept.map((part) => part.trim()), pair].join("; ");
}

/** The request's absolute URL, as @react-router/express builds it (honouring X-Forwarded-Host behind a trusted proxy). */
function requestUrl(req: ExpressRequest): URL {
  const forwarded = req.app.enabled("trust proxy") ? req.get("X-Forwarded-Host")?.split(":")[1] : undefined;
  const port = Number.parseInt(forwarded ?? req.get("host")?.split(":")[1] ?? "", 10);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`);
}

function requestHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) headers.append(name, value);
  }
  return headers;
}

async function readBody(req: ExpressRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function refuseForbiddenText(url: URL, res: ExpressResponse): void {
  if (url.pathname.startsWith("/api/")) {
    const ok = url.pathname.startsWith("/api/auth/") ? { ok: false } : {};
    res.status(400).json({ ...ok, success: false, errors: { code: INVALID_TEXT_CODE, message: INVALID_TEXT_MESSAGE } });
    return;
  }
  res.status(400).type("text/plain; charset=utf-8").send(`${INVALID_TEXT_MESSAGE}: уберите их и отправьте снова.`);
}

/** Opens, migrates and (when empty) seeds the database before the server listens. */
export async function start(): Promise<void> {
  const { db } = await getDatabase();
  if (!listeningForWrites) {
    listeningForWrites = true;
    pubSubOf(db).listen((payload) => {
      if ((payload as { to?: unknown } | null)?.to === PAGE_CACHE_ENVELOPE) pageCache.invalidate();
    });
  }
}

/** Closes the database; called on SIGTERM after the HTTP server stops accepting. */
export async function stop(): Promise<void> {
  const { db } = await getDatabase();
  await Promise.all([flushViews(db), flushImpressions(db)]);
  await closeDatabase();
}

let webSocket: WebSocketTransport | undefined;

/**
 * Serves the realtime websocket at /api/ws on `server` (issue 4); call once, after listen.
 * `clientAddress` gives an upgrade request's client address as Express's `req.ip` would (behind a
 * trusted proxy, from X-Forwarded-For), for the per-address connection cap.
 * Server-sent events need no upgrade: /api/sse is answered above, beside the router.
 */
export function attachRealtime(server: Server, options: { clientAddress?: (request: IncomingMessage) => string } = {}): void {
  webSocket ??= attachWebSocketServer(server, async () => (await getDatabase()).db, { clientAddress: options.clientAddress });
}

/**
 * Ends every realtime connection of this process: websockets close with 1001 (going away, the
 * client reconnects elsewhere) and event streams end, so that server.close() need not wait for
 * them. Called on SIGTERM before the HTTP server closes.
 */
export function closeRealtime(): void {
  webSocket?.close();
  closeEventStreams();
}
