/**
 * Serialising frames for the transports. The hub hands one frame object to every subscriber
 * of a channel, so its JSON is computed once per frame, not once per connection: with 1 000
 * subscribers that is the difference between one JSON.stringify and a thousand (bench/fanout).
 * Its UTF-8 bytes likewise: a websocket sends the same buffer on every connection.
 */
import type { RealtimeFrame } from "./frames";

const cache = new WeakMap<RealtimeFrame, string>();

/** The JSON text of `frame` (`{"channel":…,"data":…}`), cached per frame object. */
export function frameJson(frame: RealtimeFrame): string {
  let json = cache.get(frame);
  if (json === undefined) cache.set(frame, (json = JSON.stringify(frame)));
  return json;
}

const bytesCache = new WeakMap<RealtimeFrame, Buffer>();

/** frameJson(frame) as UTF-8, cached per frame object: encoded once for all its connections. */
export function frameBytes(frame: RealtimeFrame): Buffer {
  let bytes = bytesCache.get(frame);
  if (bytes === undefined) bytesCache.set(frame, (bytes = Buffer.from(frameJson(frame))));
  return bytes;
}

/** The last event-stream event encoded, with its bytes: the hub hands one frame to every stream in turn. */
let lastEvent: { event: string; data: string; bytes: Buffer } | null = null;

/**
 * An event stream's `event:`/`data:` lines for `event` and `data` as UTF-8, encoded once for all
 * the streams a frame goes to (a message to 1 000 subscribers was built and encoded 1 000 times).
 */
export function eventStreamBytes(event: string, data: string): Buffer {
  if (lastEvent?.event !== event || lastEvent.data !== data) {
    lastEvent = { event, data, bytes: Buffer.from(`event: ${event}\ndata: ${data.split("\n").join("\ndata: ")}\n\n`) };
  }
  return lastEvent.bytes;
}
