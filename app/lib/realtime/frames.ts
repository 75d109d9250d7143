/**
 * Realtime frames shared by the server and the browser (docs/product/realtime.md#frames).
 * Every transport — server-sent events and the /api/ws websocket — carries the same
 * `{channel, data}` frames.
 */

/** A frame as sent to a client. */
export interface RealtimeFrame<T = unknown> {
  channel: string;
  data: T;
}

/** A channel a client may subscribe to (docs/product/realtime.md#channels). */
export type ChannelRef = { kind: "notifications" } | { kind: "group"; conversationId: number } | { kind: "personal"; conversationId: number };

/** `conversation:group:{id}`, `conversation:personal:{id}` or `notifications`. */
export function channelName(ref: ChannelRef): string {
  return ref.kind === "notifications" ? "notifications" : `conversation:${ref.kind}:${ref.conversationId}`;
}

/** Parses a channel name; null for anything that is not one of the channels of docs/product/realtime.md#channels. */
export function parseChannel(name: unknown): ChannelRef | null {
  if (name === "notifications") return { kind: "notifications" };
  if (typeof name !== "string") return null;
  const match = /^conversation:(group|personal):([1-9]\d{0,9})$/.exec(name);
  if (!match) return null;
  const conversationId = Number(match[2]);
  if (conversationId > 2_147_483_647) return null;
  return { kind: match[1] as "group" | "personal", conversationId };
}

/** Websocket frames a client sends (docs/product/realtime.md#websocket-protocol): auth first, then subscribe frames and pings. */
export type ClientFrame =
  | { type: "auth"; apiToken: string }
  | { type: "subscribe"; channel: string }
  | { type: "unsubscribe"; channel: string }
  | { type: "ping" }
  /** The member is typing in the conversation of `channel`, subscribed on this socket (docs/product/conversations.md#typing). */
  | { type: "typing"; channel: string };

/** docs/product/conversations.md#typing: the typing frame on a conversation channel, never stored. */
export interface TypingFrameData {
  type: "typing";
  user: { id: number; username: string };
}

/** Timings of docs/product/conversations.md#typing (ms). */
export const TYPING_TIMING = {
  /** The browser sends at most one typing frame per this interval while the text changes. */
  sendIntervalMs: 3000,
  /** The server passes on at most one per socket and channel per this interval. */
  relayIntervalMs: 2000,
  /** A name disappears this long after its last typing frame. */
  expireMs: 5000,
} as const;

/**
 * Frames on the `system` channel: answers to the client's own frames, never domain data.
 * `error.code` is stable: bad_frame, not_authenticated, channel_forbidden,
 * too_many_subscriptions, internal (websocket), invalid_token (the last SSE frame of a
 * stream whose token was rotated). Every SSE stream opens with `subscribed`.
 */
export type SystemData =
  | { type: "authenticated"; userId: number }
  | { type: "subscribed"; channel: string }
  | { type: "unsubscribed"; channel: string }
  | { type: "pong" }
  | { type: "error"; code: string; message: string; channel?: string };

/** A frame on the `system` channel (both transports answer with these). */
export const systemFrame = (data: SystemData): RealtimeFrame<SystemData> => ({ channel: "system", data });

/** Websocket close codes (4000–4999 are the application's own). */
export const WS_CLOSE = {
  /** The auth frame named no valid apiToken, or the token ended (its session ended, or it was rotated). */
  unauthorized: 4401,
  /** The member already holds as many live connections as allowed (REALTIME_MAX_CONNECTIONS_PER_MEMBER); retry later. */
  tooManyConnections: 4429,
  /** No auth frame within the allowed time. */
  authTimeout: 4408,
  /** The server is shutting down; reconnect. */
  goingAway: 1001,
} as const;

/** Timings of docs/product/realtime.md#ping-and-reconnect. */
export const REALTIME_TIMING = {
  /** The client's ping frame interval (ms). */
  pingIntervalMs: 25_000,
  /** Websocket reconnect attempts and the wait between them (ms); SSE always reconnects. */
  reconnectRetries: 6,
  reconnectDelayMs: 1000,
  /** Server heartbeat on server-sent event streams, so proxies keep them open (ms). */
  sseHeartbeatMs: 15_000,
  /** The websocket must authenticate within this time (ms). */
  authTimeoutMs: 10_000,
} as const;

/** The channel of an open conversation page (the public conversation is a "group"). */
export function conversationChannel(kind: "group" | "personal", conversationId: number): string {
  return channelName({ kind, conversationId });
}
