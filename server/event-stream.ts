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
import type { ServerResponse } from "node:http";
import type { Db } from "~/db/client.server";
import { toApiErrorResponse } from "~/lib/errors";
import { INVALID_TEXT_CODE, INVALID_TEXT_MESSAGE, urlHoldsForbiddenText } from "~/lib/input-guard";
import { subscribeEventStream, type StartEventStream } from "~/lib/realtime/sse.server";
import { MAX_EVENT_STREAM_BUFFER_BYTES } from "./send-response";

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
    if (urlHoldsForbiddenText(new URL(request.url, "http://localhost"))) {
      return writeJson(res, 400, { success: false, errors: { code: INVALID_TEXT_CODE, message: INVALID_TEXT_MESSAGE } });
    }
    start = await subscribeEventStream(db, new URLSearchParams(request.url.split("?")[1] ?? ""), { clientAddress: request.clientAddress });
  } catch (error) {
    const response = toApiErrorResponse(error);
    if (res.destroyed || res.headersSent) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
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
      res.write(frameBytes(event, data));
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

/** The last frame encoded, with its bytes: the hub hands the same frame to every stream in turn. */
let lastFrame: { event: string; data: string; bytes: Buffer } | null = null;

/**
 * The `event:`/`data:` lines of a frame as UTF-8, encoded once for all the streams it goes to
 * (a message to 1 000 subscribers was built and encoded 1 000 times).
 */
function frameBytes(event: string, data: string): Buffer {
  if (lastFrame?.event !== event || lastFrame.data !== data) {
    lastFrame = { event, data, bytes: Buffer.from(`event: ${event}\ndata: ${data.split("\n").join("\ndata: ")}\n\n`) };
  }
  return lastFrame.bytes;
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}
