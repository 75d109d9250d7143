/**
 * The browser's realtime connection (docs/product/realtime.md#ping-and-reconnect): the websocket at /api/ws — an auth
 * frame with the member's apiToken, a subscribe frame per channel, a ping every 25 000 ms,
 * up to 6 reconnects 1000 ms apart — and, when the websocket cannot be had (or the site is
 * configured for it), server-sent events at the configured endpoint (REALTIME_SSE_PATH,
 * /api/sse by default), one stream per channel, which reconnect unless the server ended them
 * for good (`unsubscribed`, `invalid_token`). Both carry the same `{channel, data}` frames.
 * No React here: the provider owns one client and tests drive it with fake sockets.
 */
import { parseChannel, REALTIME_TIMING, WS_CLOSE, type ClientFrame, type RealtimeFrame, type SystemData } from "~/lib/realtime/frames";
import type { RealtimeTransport } from "./types";

export type { RealtimeTransport };

/** What the client is doing, for diagnostics (the provider's `realtime-status` element). */
export type RealtimeStatus = "connecting" | "open" | "reconnecting" | "closed";

/** The browser classes the client uses; tests pass fakes. */
export interface RealtimeEnvironment {
  WebSocket: new (url: string) => WebSocket;
  EventSource: new (url: string) => EventSource;
  /** The page's origin, e.g. "https://example.org". */
  origin: string;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
}

/** What a RealtimeClient needs: the member's token, the configured transport and endpoint, and where frames go. */
export interface RealtimeClientOptions {
  apiToken: string;
  /** "sse" skips the websocket altogether (REALTIME_TRANSPORT=sse). */
  transport: RealtimeTransport;
  /** The event-stream path (REALTIME_SSE_PATH); DEFAULT_SSE_PATH unless configured. */
  ssePath?: string;
  /** Every frame of a subscribed channel (system frames included). */
  onFrame: (frame: RealtimeFrame) => void;
  onStatus?: (status: RealtimeStatus, transport: RealtimeTransport) => void;
  timing?: RealtimeClientTiming;
  environment?: RealtimeEnvironment;
}

/** The client's timings (ms); REALTIME_TIMING (docs/product/limits.md#realtime-limits) unless a test shortens them. */
export interface RealtimeClientTiming {
  pingIntervalMs: number;
  reconnectRetries: number;
  reconnectDelayMs: number;
}

/** Longest wait before reopening an event stream the server closed for good (ms). */
const SSE_MAX_RETRY_MS = 30_000;

function browserEnvironment(): RealtimeEnvironment {
  return {
    WebSocket: window.WebSocket,
    EventSource: window.EventSource,
    origin: window.location.origin,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (handle) => window.clearInterval(handle as number),
  };
}

/** The event-stream path the server itself answers (app/routes.ts); REALTIME_SSE_PATH defaults to it. */
export const DEFAULT_SSE_PATH = "/api/sse";

/**
 * The event-stream address of `channel` at `path` on `origin`
 * (docs/product/realtime.md#server-sent-events: a configured endpoint with the query type, id and api-token), or null for a name that is no channel.
 */
export function sseUrl(origin: string, channel: string, apiToken: string, path: string = DEFAULT_SSE_PATH): string | null {
  const ref = parseChannel(channel);
  if (!ref) return null;
  const query = new URLSearchParams(ref.kind === "notifications" ? { type: "notifications" } : { type: ref.kind, id: String(ref.conversationId) });
  query.set("api-token", apiToken);
  return `${origin}${path}?${query.toString()}`;
}

/** The /api/ws address for a page served from `origin` (ws: for http, wss: for https). */
export function webSocketUrl(origin: string): string {
  return `${origin.replace(/^http/, "ws")}/api/ws`;
}

/** A `{channel, data}` frame from its JSON text, or null for anything else. */
export function parseFrame(text: unknown): RealtimeFrame | null {
  if (typeof text !== "string") return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && typeof (value as RealtimeFrame).channel === "string" && "data" in value) {
      return value as RealtimeFrame;
    }
  } catch {
    // Not JSON: not a frame.
  }
  return null;
}

/**
 * One member's live connection in the browser: the websocket with its auth, subscribe and ping
 * frames and its reconnects (docs/product/realtime.md#ping-and-reconnect), falling back to one event stream per channel
 * after 6 failed reconnects (or using only those with transport "sse"). Every frame of a
 * subscribed channel, system frames included, goes to `options.onFrame`. A refused or rotated
 * token (4401, `invalid_token`) stops it for good; close() stops it too.
 */
export class RealtimeClient {
  private readonly env: RealtimeEnvironment;
  private readonly timing: RealtimeClientTiming;
  private readonly channels = new Set<string>();
  private transport: RealtimeTransport;
  private closed = false;

  private socket: WebSocket | null = null;
  /** Unsubscribe frames sent on the current socket and not yet answered, per channel. */
  private readonly unsubscribing = new Map<string, number>();
  private failures = 0;
  private pingTimer: unknown = null;
  private retryTimer: unknown = null;

  private readonly streams = new Map<string, { source: EventSource | null; retry: unknown; failures: number }>();

  constructor(private readonly options: RealtimeClientOptions) {
    this.env = options.environment ?? browserEnvironment();
    this.timing = options.timing ?? REALTIME_TIMING;
    this.transport = options.transport;
  }

  /** The transport in use: "ws", or "sse" after the websocket failed (or by configuration). */
  get activeTransport(): RealtimeTransport {
    return this.transport;
  }

  /** Starts connecting; channels may be added before or after. */
  start(): void {
    if (this.closed) return;
    if (this.transport === "ws") this.openSocket();
    else for (const channel of this.channels) this.openStream(channel);
  }

  /** Receives `channel`'s frames from now on (a second call for the same channel is a no-op). */
  subscribe(channel: string): void {
    if (this.closed || this.channels.has(channel) || !parseChannel(channel)) return;
    this.channels.add(channel);
    if (this.transport === "ws") this.sendFrame({ type: "subscribe", channel });
    else this.openStream(channel);
  }

  /** Stops receiving `channel`'s frames. */
  unsubscribe(channel: string): void {
    if (!this.channels.delete(channel)) return;
    if (this.transport === "ws") this.sendFrame({ type: "unsubscribe", channel });
    else this.closeStream(channel);
  }

  /**
   * Tells the conversation of `channel` that the member is typing
   * (docs/product/conversations.md#typing). Only over the websocket, on a channel subscribed to;
   * server-sent events carry nothing upwards, so then it is dropped.
   */
  typing(channel: string): void {
    if (this.closed || this.transport !== "ws" || !this.channels.has(channel)) return;
    this.sendFrame({ type: "typing", channel });
  }

  /** Closes everything for good (sign-out, page unload). */
  close(): void {
    this.closed = true;
    this.stopSocket();
    for (const channel of [...this.streams.keys()]) this.closeStream(channel);
    this.options.onStatus?.("closed", this.transport);
  }

  // --- websocket -------------------------------------------------------------------------

  private openSocket(): void {
    this.options.onStatus?.(this.failures === 0 ? "connecting" : "reconnecting", "ws");
    let socket: WebSocket;
    try {
      socket = new this.env.WebSocket(webSocketUrl(this.env.origin));
    } catch {
      this.socketFailed();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      // Frames are handled in order on the server: the subscriptions follow the auth frame.
      this.sendFrame({ type: "auth", apiToken: this.options.apiToken });
      for (const channel of this.channels) this.sendFrame({ type: "subscribe", channel });
      this.pingTimer = this.env.setInterval(() => this.sendFrame({ type: "ping" }), this.timing.pingIntervalMs);
    };
    socket.onmessage = (event: MessageEvent) => {
      const frame = parseFrame(event.data);
      if (!frame) return;
      const system = frame.channel === "system" ? (frame.data as SystemData) : null;
      if (system?.type === "authenticated") {
        this.failures = 0;
        this.options.onStatus?.("open", "ws");
      }
      this.options.onFrame(frame);
      if (system?.type === "unsubscribed") this.socketUnsubscribed(system.channel);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.stopSocket();
      if (this.closed) return;
      // A refused or rotated token will not get better by retrying either transport.
      if (event.code === WS_CLOSE.unauthorized) {
        this.closed = true;
        this.options.onStatus?.("closed", "ws");
        return;
      }
      this.socketFailed();
    };
  }

  private socketFailed(): void {
    this.failures += 1;
    if (this.failures > this.timing.reconnectRetries) {
      // docs/product/realtime.md#ping-and-reconnect: after 6 failed reconnects the websocket gives way to server-sent events.
      this.transport = "sse";
      for (const channel of this.channels) this.openStream(channel);
      return;
    }
    this.options.onStatus?.("reconnecting", "ws");
    this.retryTimer = this.env.setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed) this.openSocket();
    }, this.timing.reconnectDelayMs);
  }

  private stopSocket(): void {
    if (this.pingTimer !== null) this.env.clearInterval(this.pingTimer);
    if (this.retryTimer !== null) this.env.clearTimeout(this.retryTimer);
    this.pingTimer = null;
    this.retryTimer = null;
    this.unsubscribing.clear();
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onclose = null;
    socket.onmessage = null;
    // Closing a socket that is still connecting makes Chromium log an error: let it open first.
    if (socket.readyState === 0) socket.onopen = () => socket.close(1000);
    else if (socket.readyState === 1) socket.close(1000);
  }

  /** Sends `frame` on the open websocket; without one it is dropped (onopen sends the subscriptions). */
  private sendFrame(frame: ClientFrame): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1) return;
    socket.send(JSON.stringify(frame));
    if (frame.type === "unsubscribe") this.unsubscribing.set(frame.channel, (this.unsubscribing.get(frame.channel) ?? 0) + 1);
  }

  /**
   * `unsubscribed` on the websocket answers one of our unsubscribe frames, or says the server
   * took the channel away (the member left the conversation or was removed): then the channel
   * is forgotten, so neither a reconnect nor the fallback to server-sent events asks for it again.
   */
  private socketUnsubscribed(channel: string): void {
    const awaited = this.unsubscribing.get(channel) ?? 0;
    if (awaited > 1) this.unsubscribing.set(channel, awaited - 1);
    else if (awaited === 1) this.unsubscribing.delete(channel);
    else this.channels.delete(channel);
  }

  // --- server-sent events ----------------------------------------------------------------

  private openStream(channel: string): void {
    const url = sseUrl(this.env.origin, channel, this.options.apiToken, this.options.ssePath);
    if (!url || this.closed) return;
    const entry = this.streams.get(channel) ?? { source: null, retry: null, failures: 0 };
    this.streams.set(channel, entry);
    if (entry.source) return;
    const source = new this.env.EventSource(url);
    entry.source = source;
    source.onopen = () => {
      entry.failures = 0;
      this.options.onStatus?.("open", "sse");
    };
    source.onmessage = (event: MessageEvent) => {
      const frame = parseFrame(event.data);
      if (!frame) return;
      this.options.onFrame(frame);
      if (frame.channel === "system") this.streamSystemFrame(channel, frame.data as SystemData);
    };
    source.onerror = () => {
      // EventSource reconnects by itself after a dropped connection; when the server refused
      // the stream (readyState CLOSED) it gives up, so open it again, waiting longer each time.
      if (source.readyState !== 2 || entry.source !== source) return;
      entry.source = null;
      entry.failures += 1;
      this.options.onStatus?.("reconnecting", "sse");
      const delay = Math.min(SSE_MAX_RETRY_MS, this.timing.reconnectDelayMs * 2 ** Math.min(entry.failures - 1, 5));
      entry.retry = this.env.setTimeout(() => {
        entry.retry = null;
        if (this.channels.has(channel) && !this.closed) this.openStream(channel);
      }, delay);
    };
  }

  /**
   * The last frames of a stream the server ends for good: EventSource would reconnect and be
   * refused for ever (404 once out of the conversation, 401 with a rotated token), so close it
   * first. `unsubscribed` ends that channel; `invalid_token` ends the whole client, as the
   * websocket's 4401 does.
   */
  private streamSystemFrame(channel: string, data: SystemData): void {
    if (data.type === "error" && data.code === "invalid_token") {
      this.close();
    } else if (data.type === "unsubscribed" && data.channel === channel) {
      this.channels.delete(channel);
      this.closeStream(channel);
    }
  }

  private closeStream(channel: string): void {
    const entry = this.streams.get(channel);
    if (!entry) return;
    this.streams.delete(channel);
    if (entry.retry !== null) this.env.clearTimeout(entry.retry);
    const source = entry.source;
    entry.source = null;
    source?.close();
  }
}
