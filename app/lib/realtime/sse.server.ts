/**
 * The server-sent events transport (issue 4 "Realtime transports", docs/product/realtime.md#server-sent-events): one stream per
 * channel, chosen by the query `type=group|personal&id={id}` or `type=notifications`, signed in
 * by the query `api-token`. Every frame is a default "message" event whose data is the JSON
 * frame `{channel, data}`; a "ping" event every REALTIME_TIMING.sseHeartbeatMs keeps proxies
 * from closing an idle stream (browsers' EventSource ignores events nobody listens to) and
 * re-checks the member's access to the conversation.
 */
import { eventStream } from "remix-utils/sse/server";
import type { Db } from "~/db/client.server";
import { NotFound, RateLimited, Unauthorized, ValidationFailed } from "~/lib/errors";
import { authenticateApiToken, isApiTokenCurrent, mayReceive } from "./access.server";
import { configuredConnectionCaps, takeAddressSlot, takeMemberSlot, type ConnectionCaps } from "./connection-caps.server";
import { channelName, parseChannel, systemFrame, REALTIME_TIMING, type RealtimeFrame } from "./frames";
import { realtimeHub, type RealtimeConnection } from "./hub.server";
import { frameJson } from "./wire.server";
import { logger } from "../logger.server";

/** Closers of the streams open in this process; on globalThis so development reloads share it. */
const globalStore = globalThis as typeof globalThis & { __sseStreams?: Set<() => void> };
const openStreams = (globalStore.__sseStreams ??= new Set());

/** What a stream does with the hub's calls once it is open. */
interface StreamHandlers {
  send(frame: RealtimeFrame): void;
  revoke(): void;
  lose(channel: string): void;
}

/**
 * Opens the event stream the query asks for and answers the streaming Response
 * (text/event-stream, never cached nor buffered by proxies). The first event is the system
 * frame `{type: "subscribed", channel}`; the stream then carries that channel's frames.
 * The stream ends when the client disconnects, when its apiToken ends — its session ended or the token was rotated (after a
 * system error frame `invalid_token`), when they lose access to the conversation (after
 * `{type: "unsubscribed"}`: the removal message, or the access re-check made on every
 * heartbeat, which also catches a removal whose message never reached this process), or when
 * the server shuts down (closeEventStreams).
 *
 * Access is checked before subscribing and again once subscribed, so a removal committed in
 * between is refused too; frames published meanwhile wait until the stream opens.
 *
 * Throws ValidationFailed (400, `bad_query`) for a query naming no channel, Unauthorized
 * (401, `invalid_token`) for a missing, unknown or ended token, and NotFound (404,
 * `conversation_not_found`, as the conversation calls) for a conversation that does not exist or the member is not in,
 * and RateLimited (429, `too_many_connections`, Retry-After 30 s) when the client's address or the
 * member already holds as many live connections as allowed (connection-caps.server.ts).
 */
export async function openEventStream(
  db: Db,
  query: URLSearchParams,
  signal: AbortSignal,
  options: { clientAddress?: string; caps?: ConnectionCaps } = {},
): Promise<Response> {
  const start = await subscribeEventStream(db, query, options);
  return eventStream(signal, (send, abort) => start({ send: (event, data) => send({ event, data }), close: abort }), {
    // Nginx and similar proxies buffer responses unless told not to.
    headers: { "X-Accel-Buffering": "no" },
  });
}

/** Where an event stream's events go: `send` may throw once the client has gone; `close` ends the stream. */
export interface EventSink {
  send(event: string, data: string): void;
  close(): void;
}

/** Starts an authorised stream on `sink`; returns its cleanup, to run once when the stream ends for any reason. */
export type StartEventStream = (sink: EventSink) => () => void;

/**
 * Everything openEventStream does before the first byte, for any writer of the stream (the Fetch
 * Response above, or server/event-stream.ts writing straight to Node's response beside the
 * router): checks the query, the token, the access and the connection caps, and subscribes. Throws
 * the errors openEventStream documents; resolves to the function that starts the stream.
 */
export async function subscribeEventStream(
  db: Db,
  query: URLSearchParams,
  options: { clientAddress?: string; caps?: ConnectionCaps } = {},
): Promise<StartEventStream> {
  const type = query.get("type");
  const ref = parseChannel(type === "notifications" ? type : `conversation:${type}:${query.get("id") ?? ""}`);
  if (!ref) {
    throw new ValidationFailed("Укажите канал: type=group или personal с id, либо type=notifications.", undefined, "bad_query");
  }
  const token = query.get("api-token");
  const user = await authenticateApiToken(db, token);
  const invalidToken = () => new Unauthorized("Недействительный или отозванный api-token.", "invalid_token");
  const notFound = () => new NotFound("Беседа не найдена", "conversation_not_found");
  if (!user) throw invalidToken();
  if (!(await mayReceive(db, user.id, ref))) throw notFound();
  const caps = options.caps ?? configuredConnectionCaps();
  const tooMany = () => new RateLimited(30_000, "Слишком много открытых соединений. Закройте лишние вкладки и попробуйте позже.", "too_many_connections");
  const releaseAddress = takeAddressSlot(options.clientAddress ?? "unknown", caps.perAddress);
  if (!releaseAddress) throw tooMany();
  const releaseMember = takeMemberSlot(user.id, caps.perMember);
  if (!releaseMember) {
    releaseAddress();
    throw tooMany();
  }
  const channel = channelName(ref);
  const hub = realtimeHub(db);

  // Until the stream is open the hub's calls are remembered: frames wait for it, and a
  // revocation or a removal refuses the request instead.
  const early: { frames: RealtimeFrame[]; refusal: (() => Error) | null } = { frames: [], refusal: null };
  let handlers: StreamHandlers | null = null;
  const connection: RealtimeConnection = {
    userId: user.id,
    session: user.session,
    send(frame) {
      if (handlers) handlers.send(frame);
      else early.frames.push(frame);
    },
    revoke() {
      if (handlers) handlers.revoke();
      else early.refusal = invalidToken;
    },
    lose(lost) {
      if (handlers) handlers.lose(lost);
      else if (lost === channel) early.refusal ??= notFound;
    },
  };
  const detach = hub.attach(connection);
  const unsubscribe = hub.subscribe(connection, ref);
  const release = () => {
    unsubscribe();
    detach();
    releaseMember();
    releaseAddress();
  };
  try {
    // A sign-out committed after the token check published its revocation before this
    // connection could hear it; a removal likewise published its `lose` before this subscription existed.
    if (!(await isApiTokenCurrent(db, token!))) early.refusal ??= invalidToken;
    if (ref.kind !== "notifications" && !(await mayReceive(db, user.id, ref))) early.refusal ??= notFound;
  } catch (failure) {
    release();
    throw failure;
  }
  if (early.refusal) {
    release();
    throw early.refusal();
  }

  return (sink) => {
    let ended = false;
    let checking = false;
    const end = () => {
      if (ended) return;
      ended = true;
      try {
        sink.close();
      } catch {
        // The client went away first: the stream is already cancelled.
      }
    };
    const write = (event: string, data: string) => {
      if (ended) return;
      try {
        sink.send(event, data);
      } catch {
        end();
      }
    };
    const sendFrame = (frame: RealtimeFrame) => write("message", frameJson(frame));
    const lose = (lost: string) => {
      if (lost !== channel || ended) return;
      sendFrame(systemFrame({ type: "unsubscribed", channel }));
      end();
    };
    /** Ends the stream when its token ended or the member no longer belongs to the conversation (one or two queries). */
    const recheck = () => {
      if (checking || ended) return;
      checking = true;
      isApiTokenCurrent(db, token!)
        .then(async (current) => {
          if (!current) return handlers?.revoke();
          if (ref.kind !== "notifications" && !(await mayReceive(db, user.id, ref))) lose(channel);
        })
        .catch((failure: unknown) => logger.error({ err: failure, area: "realtime" }, "re-checking a stream's access failed"))
        .finally(() => (checking = false));
    };
    handlers = {
      send: sendFrame,
      revoke() {
        sendFrame(systemFrame({ type: "error", code: "invalid_token", message: "Токен отозван, войдите заново." }));
        end();
      },
      lose,
    };
    const heartbeat = setInterval(() => {
      write("ping", String(Date.now()));
      recheck();
    }, REALTIME_TIMING.sseHeartbeatMs);
    openStreams.add(end);
    sendFrame(systemFrame({ type: "subscribed", channel }));
    for (const frame of early.frames.splice(0)) sendFrame(frame);
    let cleaned = false;
    return () => {
      if (cleaned) return;
      cleaned = true;
      ended = true;
      clearInterval(heartbeat);
      openStreams.delete(end);
      release();
    };
  };
}

/** Ends every event stream open in this process (graceful shutdown); returns how many. */
export function closeEventStreams(): number {
  const closers = [...openStreams];
  for (const close of closers) close();
  return closers.length;
}

/** Event streams open in this process, for diagnostics and tests. */
export function openEventStreamCount(): number {
  return openStreams.size;
}
