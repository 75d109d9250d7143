/**
 * GET /api/sse served beside the router (issue 12; docs/decisions/0025-event-streams-beside-the-router.md):
 * the same stream as app/routes/api/realtime/sse.ts — the same query, token, access checks, caps,
 * frames and heartbeats (app/lib/realtime/sse.server.ts) — written straight to Node's response
 * instead of through a Fetch Response, a web ReadableStream and React Router. That path cost five
 * times the CPU per delivered frame of a bare node:http stream and 30 KB per open stream; this one
 * about 2.75 times and 21 KB (bench/fanout). In production the stream is answered before Express
 * too (server/index.js, decision 0037): no request-logging context, compression wrapper or
 * router state stays with each open stream. A reader that leaves more than
 * MAX_EVENT_STREAM_BUFFER_BYTES unsent is dropped, as before (issue 13 item 5).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Db } from "~/db/client.server";
import { getDatabase } from "~/db/database.server";
import { AppError } from "~/lib/errors";
import { INVALID_TEXT_CODE, INVALID_TEXT_MESSAGE, urlHoldsForbiddenText } from "~/lib/input-guard";
import { subscribeEventStream, type StartEventStream } from "~/lib/realtime/sse.server";
import { logger } from "~/lib/logger.server";
import { eventStreamBytes } from "~/lib/realtime/wire.server";
import { MAX_EVENT_STREAM_BUFFER_BYTES, writeApiError } from "./send-response";

/** What an event stream needs of its request: the path with its query, and the client's address. */
export interface EventStreamRequest {
  /** The request's path and query, as `req.url` gives them ("/api/sse?type=…"). */
  url: string;
  /** The client's address (Express's `req.ip`), for the per-address connection cap. */
  clientAddress: string;
}

/**
 * Answers GET /api/sse on `res`: the JSON error envelope for a refused request (400 for text no
 * route accepts, 401, 404, 429, as the route documents), else a text/event-stream that lasts
 * until either side ends it.
 */
export async function serveEventStream(
  db: Db,
  request: EventStreamRequest,
  res: ServerResponse,
  maxBufferedBytes = MAX_EVENT_STREAM_BUFFER_BYTES,
): Promise<void> {
  let start: StartEventStream;
  try {
    if (urlHoldsForbiddenText(new URL(request.url, "http://localhost"))) throw new AppError(INVALID_TEXT_CODE, 400, INVALID_TEXT_MESSAGE);
    start = await subscribeEventStream(db, new URLSearchParams(request.url.split("?")[1] ?? ""), { clientAddress: request.clientAddress });
  } catch (error) {
    if (!res.destroyed && !res.headersSent) await writeApiError(res, error);
    return;
  }
  if (res.destroyed) {
    // The client left during the checks: start and end at once, so the subscription is released.
    start({ send: () => undefined, close: () => undefined })();
    return;
  }
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    // Nginx and similar proxies buffer responses unless told not to.
    "X-Accel-Buffering": "no",
  });
  res.flushHeaders();
  const cleanup = start({
    send(event, data) {
      if (res.destroyed || res.writableEnded) throw new Error("the event stream's client has gone");
      res.write(eventStreamBytes(event, data));
      // The compression middleware (development's path through Express) buffers until flushed.
      (res as { flush?: () => void }).flush?.();
      // A slow reader is dropped (the close below cleans up) rather than buffered for without bound.
      if (res.writableLength > maxBufferedBytes) res.destroy();
    },
    close() {
      if (!res.writableEnded) res.end();
    },
  });
  res.on("close", cleanup);
  if (res.destroyed) cleanup();
}

/**
 * Takes GET /api/sse before Express (server/index.js; docs/decisions/0037-event-streams-before-express.md)
 * and serves it with serveEventStream. `answering()` is called once the request is taken and gives
 * what every answer carries (the request id and security headers) and the client's address.
 * Returns false, having written nothing, for any other request.
 */
export function answerEventStream(req: IncomingMessage, res: ServerResponse, answering: () => { clientIp: string; headers: OutgoingHttpHeaders }): boolean {
  const url = req.url ?? "";
  if (req.method !== "GET" || (url !== "/api/sse" && !url.startsWith("/api/sse?"))) return false;
  const { clientIp, headers } = answering();
  res.setHeaders(new Map(Object.entries(headers) as [string, string][]));
  getDatabase()
    .then(({ db }) => serveEventStream(db, { url, clientAddress: clientIp }, res))
    .catch(async (error: unknown) => {
      // Before the first byte, the envelope (an unexpected error is reported as every /api call's is).
      if (!res.headersSent) return writeApiError(res, error);
      logger.error({ err: error }, "an event stream failed");
      res.destroy();
    });
  return true;
}
