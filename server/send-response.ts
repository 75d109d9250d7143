/**
 * Writes a Fetch Response to Express, as @react-router/express does, plus backpressure for event
 * streams (issue 13 item 5): a reader that does not drain its stream is dropped once
 * MAX_EVENT_STREAM_BUFFER_BYTES wait unsent for it, instead of the server buffering frames for it
 * without bound.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import { toApiErrorResponse } from "~/lib/errors";

/** Unsent bytes an event stream may hold for a slow reader before it is dropped. */
export const MAX_EVENT_STREAM_BUFFER_BYTES = 1024 * 1024;

/** What sendResponse needs of Express's response. */
export interface ResponseTarget extends Writable {
  statusMessage: string;
  status(code: number): unknown;
  append(name: string, value: string): unknown;
  flushHeaders(): void;
}

/** Sends `response` (status, headers, streamed body) to `res`; `maxBufferedBytes` caps what an event stream may leave unsent. */
export async function sendResponse(res: ResponseTarget, response: Response, maxBufferedBytes = MAX_EVENT_STREAM_BUFFER_BYTES): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  const eventStream = /text\/event-stream/i.test(response.headers.get("Content-Type") ?? "");
  if (eventStream) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        res.end();
        return;
      }
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      res.write(value);
      if (!eventStream) continue;
      // An event goes out at once, even through a compressor (the compression middleware buffers
      // until flushed). A page is not flushed: gzip flushed after each chunk sent 2.5 times the bytes.
      // (No page streams deferred data today; one that did would hold its shell until gzip's buffer fills.)
      (res as { flush?: () => void }).flush?.();
      if (res.writableLength > maxBufferedBytes) {
        // A slow reader: drop it (its stream's cleanup runs on the close) rather than buffer on.
        res.destroy();
        await reader.cancel();
        return;
      }
    }
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

/**
 * Writes `body` as a whole JSON answer with `status` on Node's response (the answers made before
 * Express: server/member-calls.ts, server/event-stream.ts), with `headers` besides its type and length.
 */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Writes `error` as an /api call's JSON error envelope (toApiErrorResponse: its status and code,
 * Retry-After for a rate limit, 500 `internal` reported for anything unexpected).
 */
export async function writeApiError(res: ServerResponse, error: unknown): Promise<void> {
  const response = toApiErrorResponse(error);
  const headers = Object.fromEntries(response.headers);
  delete headers["content-type"];
  writeJson(res, response.status, await response.json(), headers);
}
