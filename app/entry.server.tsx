/**
 * Server rendering with a CSP nonce on every inline script (server/index.js sets it);
 * bots and SPA-mode wait for the whole document, browsers get it streamed. Errors of loaders,
 * actions and rendering go to the request's logger (handleError).
 */
import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { currentLogger, redactUrl } from "~/lib/logger.server";
import { NonceProvider } from "~/lib/nonce";
import { scriptsAfterFirstPaint } from "~/lib/scripts-after-first-paint.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce || undefined;
  keepRetryAfter(responseStatusCode, responseHeaders, routerContext);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = coalescedChunks();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) (loadContext.log ?? currentLogger()).error({ err: error }, "rendering failed after the shell was sent");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * A stream that passes on what is written to it in one chunk per turn of the event loop. React
 * writes a page in 4 KB pieces, all in one turn unless a part waits for data; each piece would
 * otherwise be one read of the response body and one write to the socket (issue 12: 40 of them
 * for a member's post page with 50 comments). It takes every write at once (no backpressure on
 * React): a page is held in memory until the socket takes it, which at a few hundred KB is fine.
 * Each chunk passes through scriptsAfterFirstPaint on its way (docs/decisions/0057).
 */
function coalescedChunks(): Transform {
  let held: Uint8Array[] = [];
  const rewrite = scriptsAfterFirstPaint();
  const release = () => {
    if (held.length === 0) return;
    const first = held[0]!;
    const chunk = held.length === 1 ? Buffer.from(first.buffer, first.byteOffset, first.byteLength) : Buffer.concat(held);
    held = [];
    stream.push(rewrite(chunk));
  };
  const stream = new Transform({
    transform(chunk: Uint8Array, _encoding, done) {
      if (held.length === 0) setImmediate(release);
      held.push(chunk);
      done();
    },
    flush(done) {
      release();
      done();
    },
  });
  return stream;
}

/**
 * React Router's messages when an action's Origin header is not this site (its CSRF check,
 * answered 400 before any action runs).
 */
const CROSS_ORIGIN_REFUSALS = [/origin does not match `origin` header/, /`origin` header is not a valid URL/];

/**
 * Logs what React Router reports from loaders, actions and rendering with the request's
 * logger (its reqId). A refused cross-origin form post is someone else's page posting here:
 * one warn line, not a stack trace. Aborted requests (the visitor left) are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const log = (context as AppLoadContext | undefined)?.log ?? currentLogger();
  const url = new URL(request.url);
  const path = redactUrl(url.pathname + url.search);
  if (error instanceof Error && CROSS_ORIGIN_REFUSALS.some((pattern) => pattern.test(error.message))) {
    const origin = request.headers.get("Origin");
    log.warn({ method: request.method, url: path, origin }, `cross-origin ${request.method} ${path} from ${origin} refused`);
    return;
  }
  // Like React Router's default: a thrown Response carries the underlying error, if any.
  const reported = isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error;
  log.error({ err: reported, method: request.method, url: path }, `${request.method} ${path} failed`);
};

/**
 * A page form refused by a rate limit answers 429 (app/lib/forms.server.ts): its action's
 * Retry-After reaches the HTML response too, as it does on /api (docs/product/limits.md#rate-limits),
 * although no route exports a `headers` function.
 */
function keepRetryAfter(status: number, headers: Headers, routerContext: EntryContext): void {
  if (status !== 429 || headers.has("Retry-After")) return;
  const context = routerContext.staticHandlerContext;
  for (const source of [context.actionHeaders, context.loaderHeaders]) {
    for (const routeHeaders of Object.values(source ?? {})) {
      const retryAfter = routeHeaders.get("Retry-After");
      if (retryAfter) return void headers.set("Retry-After", retryAfter);
    }
  }
}
