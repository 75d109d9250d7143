/**
 * GET /api/sse served beside the router (issue 12; docs/decisions/0025-event-streams-beside-the-router.md):
 * the same stream as app/routes/api/realtime/sse.ts — the same query, token, access checks, caps,
 * frames and heartbeats (app/lib/realtime/sse.server.ts) — written straight to Node's response
 * instead of through a Fetch Response, a web ReadableStream and React Router. That path cost five
 * times the CPU per delivered frame of a bare node:http stream and 30 KB per open stream; this one
 * about 2.75 times and 21 KB (bench/fanout). A reader that leaves more than MAX_EVENT_STREAM_BUFFER_BYTES unsent is dropped,
 * as before (issue 13 item 5).
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { Db } from "~/db/client.server";
import { toApiErrorResponse } from "~/lib/errors";
import { subscribeEventStream, type StartEventStream } from "~/lib/realtime/sse.server";
import { MAX_EVENT_STREAM_BUFFER_BYTES, sendResponse } from "./send-response";

/**
 * Answers GET /api/sse on `res`: the JSON error envelope for a refused request (400, 401, 404, 429,
 * as the route documents), else a text/event-stream that lasts until either side ends it.
 */
export async function serveEventStream(db: Db, req: ExpressRequest, res: ExpressResponse, maxBufferedBytes = MAX_EVENT_STREAM_BUFFER_BYTES): Promise<void> {
  let start: StartEventStream;
  try {
    start = await subscribeEventStream(db, new URLSearchParams(req.originalUrl.split("?")[1] ?? ""), { clientAddress: req.ip ?? "unknown" });
  } catch (error) {
    await sendResponse(res, toApiErrorResponse(error));
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
      res.write(`event: ${event}\ndata: ${data.split("\n").join("\ndata: ")}\n\n`);
      // The compression middleware buffers until flushed: each event goes out at once.
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
