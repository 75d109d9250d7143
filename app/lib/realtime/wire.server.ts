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
