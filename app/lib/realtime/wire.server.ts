/**
 * Serialising frames for the transports. The hub hands one frame object to every subscriber
 * of a channel, so its JSON is computed once per frame, not once per connection: with 1 000
 * subscribers that is the difference between one JSON.stringify and a thousand (bench/fanout).
 */
import type { RealtimeFrame } from "./frames";

const cache = new WeakMap<RealtimeFrame, string>();

/** The JSON text of `frame` (`{"channel":…,"data":…}`), cached per frame object. */
export function frameJson(frame: RealtimeFrame): string {
  let json = cache.get(frame);
  if (json === undefined) cache.set(frame, (json = JSON.stringify(frame)));
  return json;
}
