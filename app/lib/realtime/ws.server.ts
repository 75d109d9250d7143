/**
 * The websocket transport at /api/ws (issue 4 "Realtime transports", docs/product/realtime.md#websocket-protocol), built
 * on the `ws` package and attached to the Node HTTP server's "upgrade" event.
 *
 * Protocol (frames.ts): the client sends `{type: "auth", apiToken}` first, then
 * `{type: "subscribe" | "unsubscribe", channel}` and `{type: "ping"}` (every 25 000 ms). The
 * server answers on the `system` channel (authenticated, subscribed, unsubscribed, pong, or
 * error with code bad_frame | invalid_text (a NUL or lone surrogate anywhere in the frame) |
 * not_authenticated | channel_forbidden | too_many_subscriptions)
 * and sends every frame of the subscribed channels as `{channel, data}`.
 *
 * Close codes (WS_CLOSE): 4401 invalid or ended token (also when its session ends or it is rotated while
 * connected), 4408 no auth frame in time, 4429 the member holds too many connections already
 * (an upgrade beyond the per-address cap is answered HTTP 429 instead), 1001 server shutting down, 1008 too many frames,
 * 1009 a frame above the size cap. A socket that answers no ws-level ping within
 * WS_LIMITS.livenessIntervalMs is terminated. A slow reader — one that leaves more than
 * WS_LIMITS.maxBufferedBytes unsent — is terminated at the next frame meant for it rather than
 * buffered for without bound (docs/product/realtime.md#backpressure); the others keep receiving.
 *
 * Access is checked when subscribing and again right after the subscription is in place (a
 * removal committed between the two would otherwise go unnoticed), then at every liveness ping:
 * a conversation the member no longer belongs to is dropped with `{type: "unsubscribed"}`, as
 * when the removal message arrives, even if that message never reached this process.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { Db } from "~/db/client.server";
import { getConfig } from "~/lib/config.server";
import { holdsForbiddenText, INVALID_TEXT_CODE, INVALID_TEXT_MESSAGE } from "~/lib/input-guard";
import { logger } from "~/lib/logger.server";
import { authenticateApiToken, isApiTokenCurrent, mayReceive, receivableChannels } from "./access.server";
import { configuredConnectionCaps, takeAddressSlot, takeMemberSlot, type ConnectionCaps } from "./connection-caps.server";
import { channelName, parseChannel, systemFrame, TYPING_TIMING, WS_CLOSE, type ChannelRef, type RealtimeFrame, type TypingFrameData } from "./frames";
import { realtimeHub, type RealtimeConnection } from "./hub.server";
import { frameBytes } from "./wire.server";

/** The path the websocket answers on (docs/product/realtime.md#websocket-protocol). */
export const WS_PATH = "/api/ws";

/** Server-side limits of the websocket. */
export const WS_LIMITS = {
  /** Largest inbound frame (bytes); client frames are a few dozen bytes. */
  maxPayloadBytes: 4096,
  /** Inbound frames allowed per window before the socket is closed with 1008. */
  framesPerWindow: 120,
  windowMs: 10_000,
  /** Channels one socket may subscribe to. */
  maxSubscriptions: 50,
  /**
   * ws-level ping interval; a socket that did not pong since the last one is terminated, and the
   * conversation subscriptions of the others are re-checked (ms).
   */
  livenessIntervalMs: 30_000,
  /**
   * Unsent bytes (ws.bufferedAmount: the socket's write queue) above which a slow client is
   * terminated at the next frame meant for it instead of buffering without end; so at most this
   * plus one frame waits per socket (docs/product/realtime.md#backpressure).
   */
  maxBufferedBytes: 4 * 1024 * 1024,
} as const;

export interface WebSocketTransportOptions {
  /** Overrides the configured REALTIME_AUTH_TIMEOUT_MS (ms; default REALTIME_TIMING.authTimeoutMs). */
  authTimeoutMs?: number;
  /** Overrides WS_LIMITS.livenessIntervalMs (ms). */
  livenessIntervalMs?: number;
  /** Overrides WS_LIMITS.maxBufferedBytes (bytes). */
  maxBufferedBytes?: number;
  /** Overrides the configured connection caps (connection-caps.server.ts). */
  caps?: ConnectionCaps;
  /** The client's address of an upgrade request (honouring a trusted proxy); the socket's peer address by default. */
  clientAddress?: (request: IncomingMessage) => string;
}

export interface WebSocketTransport {
  /** Closes every socket with 1001 (the server is going away); later upgrades are answered 503. */
  close(): void;
  /** Open sockets, for diagnostics and tests. */
  clientCount(): number;
}

const log = logger.child({ area: "realtime" });

const REASON = {
  invalidToken: "Недействительный api-token",
  revoked: "Токен отозван",
  authTimeout: "Нет авторизации",
  goingAway: "Сервер перезапускается",
  tooManyFrames: "Слишком много сообщений",
  tooManyConnections: "Слишком много соединений",
} as const;

/**
 * Handles websocket upgrades to WS_PATH on `server` (other paths are left to other "upgrade"
 * listeners, or refused when there are none). `getDb` resolves the process's database.
 * Returns the transport, whose close() the graceful shutdown calls before server.close().
 */
export function attachWebSocketServer(server: Server, getDb: () => Promise<Db>, options: WebSocketTransportOptions = {}): WebSocketTransport {
  const authTimeoutMs = options.authTimeoutMs ?? getConfig().realtimeAuthTimeoutMs;
  const livenessIntervalMs = options.livenessIntervalMs ?? WS_LIMITS.livenessIntervalMs;
  const maxBufferedBytes = options.maxBufferedBytes ?? WS_LIMITS.maxBufferedBytes;
  const caps = () => options.caps ?? configuredConnectionCaps();
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_LIMITS.maxPayloadBytes, clientTracking: true });
  const alive = new WeakSet<WebSocket>();
  /** Each served socket's periodic re-check of its conversation subscriptions. */
  const rechecks = new WeakMap<WebSocket, () => void>();
  let closing = false;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    if (pathname !== WS_PATH) {
      // Someone else (a development tool) may serve this path; otherwise nobody will.
      if (server.listenerCount("upgrade") === 1) socket.destroy();
      return;
    }
    if (closing) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const address = options.clientAddress?.(request) ?? request.socket.remoteAddress ?? "unknown";
    const releaseAddress = takeAddressSlot(address, caps().perAddress);
    if (!releaseAddress) {
      socket.end("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    // The raw socket closes whatever happens next (refused upgrade, closed websocket).
    socket.once("close", releaseAddress);
    getDb().then(
      (db) => wss.handleUpgrade(request, socket, head, (ws) => serve(db, ws)),
      (error: unknown) => {
        log.error({ err: error }, "no database for a websocket");
        socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      },
    );
  };
  server.on("upgrade", onUpgrade);

  const liveness = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
      rechecks.get(ws)?.();
    }
  }, livenessIntervalMs);
  liveness.unref();

  function serve(db: Db, ws: WebSocket) {
    const hub = realtimeHub(db);
    const subscriptions = new Map<string, () => void>();
    /** Channels subscribed but not yet confirmed by the second access check: their frames wait here. */
    const held = new Map<string, RealtimeFrame[]>();
    let userId: number | null = null;
    let username = "";
    /** When each conversation channel last relayed this socket's typing frame (ms). */
    const typedAt = new Map<string, number>();
    /** The token the socket authenticated with, re-checked at every liveness ping. */
    let token: string | null = null;
    let detach: (() => void) | null = null;
    let frameCount = 0;
    let windowStart = Date.now();
    // Frames are handled one after another: a subscribe waits for the auth before it.
    let queue: Promise<void> = Promise.resolve();

    alive.add(ws);
    ws.on("pong", () => alive.add(ws));

    const send = (frame: RealtimeFrame) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > maxBufferedBytes) {
        // A close frame would only queue behind the backlog: cut the connection; the browser reconnects.
        log.warn({ userId, bufferedBytes: ws.bufferedAmount }, "slow websocket reader dropped");
        ws.terminate();
        return;
      }
      // The frame's bytes, encoded once for every connection, sent as a text message.
      ws.send(frameBytes(frame), { binary: false });
    };
    const error = (code: string, message: string, channel?: string) => send(systemFrame({ type: "error", code, message, ...(channel ? { channel } : {}) }));

    const authTimer = setTimeout(() => {
      if (userId === null) ws.close(WS_CLOSE.authTimeout, REASON.authTimeout);
    }, authTimeoutMs);

    const connection: RealtimeConnection = {
      get userId() {
        return userId ?? 0;
      },
      send(frame) {
        const waiting = held.get(frame.channel);
        if (waiting) waiting.push(frame);
        else send(frame);
      },
      revoke: () => ws.close(WS_CLOSE.unauthorized, REASON.revoked),
      lose,
    };
    /** The token's session ended, expired or got a new token while no revocation reached this process. */
    async function recheckToken(): Promise<boolean> {
      if (token === null || ws.readyState !== ws.OPEN) return true;
      if (await isApiTokenCurrent(db, token)) return true;
      connection.revoke();
      return false;
    }

    /** The member lost access to `channel`: unsubscribe and tell the client. */
    function lose(channel: string) {
      const unsubscribe = subscriptions.get(channel);
      if (!unsubscribe) return;
      unsubscribe();
      subscriptions.delete(channel);
      // A channel still being confirmed was never announced: its subscribe answers channel_forbidden.
      if (!held.delete(channel)) send(systemFrame({ type: "unsubscribed", channel }));
    }

    /** Closes the socket when its token ended; drops the conversation subscriptions the member has lost (two queries). */
    async function recheck() {
      if (userId === null || ws.readyState !== ws.OPEN) return;
      if (!(await recheckToken())) return;
      const refs = [...subscriptions.keys()].map(parseChannel).filter((ref): ref is ChannelRef => ref?.kind === "group" || ref?.kind === "personal");
      if (refs.length === 0) return;
      const allowed = await receivableChannels(db, userId, refs);
      for (const ref of refs) {
        const channel = channelName(ref);
        if (!allowed.has(channel)) lose(channel);
      }
    }
    // Queued behind the frames, so a re-check never interleaves with a subscribe being handled.
    rechecks.set(ws, () => {
      queue = queue.then(recheck).catch((failure: unknown) => log.error({ err: failure }, "re-checking subscriptions failed"));
    });

    async function handle(raw: RawData, isBinary: boolean) {
      if (ws.readyState !== ws.OPEN) return;
      let frame: unknown;
      try {
        frame = isBinary ? null : JSON.parse(raw.toString());
      } catch {
        frame = null;
      }
      // The one gate for characters no input may carry (app/lib/input-guard.ts), as for HTTP requests.
      if (holdsForbiddenText(frame)) return error(INVALID_TEXT_CODE, INVALID_TEXT_MESSAGE);
      const type = typeof frame === "object" && frame !== null ? (frame as { type?: unknown }).type : undefined;
      if (type === "ping") return send(systemFrame({ type: "pong" }));
      if (type === "auth") {
        if (userId !== null) return error("bad_frame", "Соединение уже авторизовано.");
        const presented = (frame as { apiToken?: unknown }).apiToken;
        const user = await authenticateApiToken(db, presented);
        if (ws.readyState !== ws.OPEN) return;
        if (!user) return ws.close(WS_CLOSE.unauthorized, REASON.invalidToken);
        clearTimeout(authTimer);
        const releaseMember = takeMemberSlot(user.id, caps().perMember);
        if (!releaseMember) return ws.close(WS_CLOSE.tooManyConnections, REASON.tooManyConnections);
        ws.once("close", releaseMember);
        userId = user.id;
        username = user.username;
        token = presented as string;
        connection.session = user.session;
        detach = hub.attach(connection);
        // A sign-out committed between the token check and the attach published its revocation
        // before this connection could hear it: check once more now that it would.
        if (!(await recheckToken())) return;
        return send(systemFrame({ type: "authenticated", userId: user.id }));
      }
      if (type === "typing") return typing((frame as { channel?: unknown }).channel);
      if (type !== "subscribe" && type !== "unsubscribe") {
        return error("bad_frame", "Неизвестный кадр: ожидается JSON с полем type (auth, subscribe, unsubscribe, ping, typing).");
      }
      if (userId === null) return error("not_authenticated", "Сначала отправьте кадр auth с apiToken.");
      const requested = (frame as { channel?: unknown }).channel;
      const ref = parseChannel(requested);
      if (!ref) return error("bad_frame", "Неизвестный канал.", typeof requested === "string" ? requested.slice(0, 100) : undefined);
      const channel = channelName(ref);
      if (type === "unsubscribe") {
        subscriptions.get(channel)?.();
        subscriptions.delete(channel);
        return send(systemFrame({ type: "unsubscribed", channel }));
      }
      if (subscriptions.has(channel)) return send(systemFrame({ type: "subscribed", channel }));
      if (subscriptions.size >= WS_LIMITS.maxSubscriptions) {
        return error("too_many_subscriptions", `Не больше ${WS_LIMITS.maxSubscriptions} подписок на одно соединение.`, channel);
      }
      const forbidden = () => error("channel_forbidden", "Нет доступа к этому каналу.", channel);
      if (!(await mayReceive(db, userId, ref))) return forbidden();
      if (ws.readyState !== ws.OPEN) return;
      if (ref.kind === "notifications") {
        subscriptions.set(channel, hub.subscribe(connection, ref));
        return send(systemFrame({ type: "subscribed", channel }));
      }
      // A removal committed after the check above published its `lose` before this subscription
      // existed: check again once subscribed, holding the channel's frames until then.
      held.set(channel, []);
      const unsubscribe = hub.subscribe(connection, ref);
      subscriptions.set(channel, unsubscribe);
      const undo = () => {
        if (subscriptions.get(channel) === unsubscribe) subscriptions.delete(channel);
        unsubscribe();
      };
      let confirmed: boolean;
      try {
        confirmed = await mayReceive(db, userId, ref);
      } catch (failure) {
        held.delete(channel);
        undo();
        throw failure;
      }
      // No waiting list: the removal message arrived meanwhile (lose) and already unsubscribed.
      const waiting = held.get(channel);
      held.delete(channel);
      if (!confirmed || !waiting) {
        undo();
        return forbidden();
      }
      if (ws.readyState !== ws.OPEN) return;
      send(systemFrame({ type: "subscribed", channel }));
      for (const frame of waiting) send(frame);
    }

    /**
     * docs/product/conversations.md#typing: relays the member's typing to a conversation channel
     * this socket is subscribed to (and confirmed), at most once per TYPING_TIMING.relayIntervalMs.
     */
    async function typing(requested: unknown) {
      if (userId === null) return error("not_authenticated", "Сначала отправьте кадр auth с apiToken.");
      const ref = parseChannel(requested);
      if (!ref || ref.kind === "notifications") return error("bad_frame", "Неизвестный канал.");
      const channel = channelName(ref);
      if (!subscriptions.has(channel) || held.has(channel)) return error("channel_forbidden", "Сначала подпишитесь на этот канал.", channel);
      const now = Date.now();
      if (now - (typedAt.get(channel) ?? 0) < TYPING_TIMING.relayIntervalMs) return;
      typedAt.set(channel, now);
      const data: TypingFrameData = { type: "typing", user: { id: userId, username } };
      await hub.publishToChannel(ref, data);
    }

    ws.on("message", (raw, isBinary) => {
      const now = Date.now();
      if (now - windowStart > WS_LIMITS.windowMs) {
        windowStart = now;
        frameCount = 0;
      }
      if (++frameCount > WS_LIMITS.framesPerWindow) {
        ws.close(1008, REASON.tooManyFrames);
        return;
      }
      queue = queue
        .then(() => handle(raw, isBinary))
        .catch((failure: unknown) => {
          log.error({ err: failure }, "a websocket frame failed");
          error("internal", "Внутренняя ошибка сервера.");
        });
    });

    ws.on("close", () => {
      clearTimeout(authTimer);
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
      detach?.();
      detach = null;
    });
    ws.on("error", () => {
      // A protocol error (such as a frame above maxPayload) closes the socket; "close" cleans up.
    });
  }

  return {
    close() {
      closing = true;
      clearInterval(liveness);
      for (const ws of wss.clients) ws.close(WS_CLOSE.goingAway, REASON.goingAway);
      wss.close();
    },
    clientCount: () => wss.clients.size,
  };
}
