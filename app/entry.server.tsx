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
 */
function coalescedChunks(): Transform {
  let held: Uint8Array[] = [];
  let inHead = true;
  const release = () => {
    if (held.length === 0) return;
    const first = held[0]!;
    let chunk = held.length === 1 ? Buffer.from(first.buffer, first.byteOffset, first.byteLength) : Buffer.concat(held);
    held = [];
    if (inHead) {
      const headEnd = chunk.indexOf(HEAD_END);
      inHead = headEnd === -1;
      chunk = lowPriorityModulePreloads(chunk, inHead ? chunk.length : headEnd);
    }
    stream.push(chunk);
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

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload" ');
const LOW_PRIORITY = Buffer.from('fetchpriority="low" ');
const HEAD_END = Buffer.from("</head>");

/**
 * The document's module preloads asked for at low priority (`fetchpriority="low"`;
 * docs/decisions/0056-scripts-after-what-the-first-paint-needs.md): the stylesheet, the fonts and
 * the pictures of the first paint come first, the scripts that only enhance a page already usable
 * without them after. React Router's `<Scripts/>` has no such option, so the head's links are
 * rewritten as they are sent: those before `headEnd`, the byte offset of `</head>` in `html` (its
 * length while the head goes on); nothing after it is touched.
 */
function lowPriorityModulePreloads(html: Buffer, headEnd: number): Buffer {
  // Bytes, not text: a chunk may end inside a character, but never inside this ASCII pattern's match.
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = html.indexOf(MODULE_PRELOAD); at !== -1 && at < headEnd; at = html.indexOf(MODULE_PRELOAD, start)) {
    const end = at + MODULE_PRELOAD.length;
    parts.push(html.subarray(start, end), LOW_PRIORITY);
    start = end;
  }
  if (parts.length === 0) return html;
  parts.push(html.subarray(start));
  return Buffer.concat(parts);
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
