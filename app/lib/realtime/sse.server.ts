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
import { NotFound, Unauthorized, ValidationFailed } from "~/lib/errors";
import { authenticateApiToken, mayReceive } from "./access.server";
import { channelName, parseChannel, systemFrame, REALTIME_TIMING, type RealtimeFrame } from "./frames";
import { realtimeHub, type RealtimeConnection } from "./hub.server";
import { frameJson } from "./wire.server";

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
 * The stream ends when the client disconnects, when the member's apiToken is rotated (after a
 * system error frame `invalid_token`), when they lose access to the conversation (after
 * `{type: "unsubscribed"}`: the removal message, or the access re-check made on every
 * heartbeat, which also catches a removal whose message never reached this process), or when
 * the server shuts down (closeEventStreams).
 *
 * Access is checked before subscribing and again once subscribed, so a removal committed in
 * between is refused too; frames published meanwhile wait until the stream opens.
 *
 * Throws ValidationFailed (400, `bad_query`) for a query naming no channel, Unauthorized
 * (401, `invalid_token`) for a missing, unknown or rotated token, and NotFound (404,
 * `conversation_not_found`, as the conversation calls) for a conversation that does not exist or the member is not in.
 */
export async function openEventStream(db: Db, query: URLSearchParams, signal: AbortSignal): Promise<Response> {
  const type = query.get("type");
  const ref = parseChannel(type === "notifications" ? type : `conversation:${type}:${query.get("id") ?? ""}`);
  if (!ref) {
    throw new ValidationFailed("Укажите канал: type=group или personal с id, либо type=notifications.", undefined, "bad_query");
  }
  const user = await authenticateApiToken(db, query.get("api-token"));
  const invalidToken = () => new Unauthorized("Недействительный или отозванный api-token.", "invalid_token");
  const notFound = () => new NotFound("Беседа не найдена", "conversation_not_found");
  if (!user) throw invalidToken();
  if (!(await mayReceive(db, user.id, ref))) throw notFound();
  const channel = channelName(ref);
  const hub = realtimeHub(db);

  // Until the stream is open the hub's calls are remembered: frames wait for it, and a
  // revocation or a removal refuses the request instead.
  const early: { frames: RealtimeFrame[]; refusal: (() => Error) | null } = { frames: [], refusal: null };
  let handlers: StreamHandlers | null = null;
  const connection: RealtimeConnection = {
    userId: user.id,
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
  };
  try {
    // A removal committed after the check above published its `lose` before this subscription existed.
    if (ref.kind !== "notifications" && !(await mayReceive(db, user.id, ref))) early.refusal ??= notFound;
  } catch (failure) {
    release();
    throw failure;
  }
  if (early.refusal) {
    release();
    throw early.refusal();
  }

  return eventStream(
    signal,
    (send, abort) => {
      let ended = false;
      let checking = false;
      const end = () => {
        if (ended) return;
        ended = true;
        try {
          abort();
        } catch {
          // The client went away first: the stream is already cancelled.
        }
      };
      const write = (event: string, data: string) => {
        if (ended) return;
        try {
          send({ event, data });
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
      /** Ends the stream when the member no longer belongs to the conversation (one query). */
      const recheck = () => {
        if (ref.kind === "notifications" || checking || ended) return;
        checking = true;
        mayReceive(db, user.id, ref)
          .then((allowed) => {
            if (!allowed) lose(channel);
          })
          .catch((failure: unknown) => console.error("realtime: re-checking a stream's access failed", failure))
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
      return () => {
        ended = true;
        clearInterval(heartbeat);
        openStreams.delete(end);
        release();
      };
    },
    // Nginx and similar proxies buffer responses unless told not to.
    { headers: { "X-Accel-Buffering": "no" } },
  );
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
