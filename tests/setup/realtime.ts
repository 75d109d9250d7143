/**
 * Realtime clients for tests and benchmarks: a server-sent events reader on node:http (Node 20
 * has no EventSource) and a websocket client on `ws`, both collecting the `{channel, data}`
 * frames they receive so a test can wait for one (tests/setup/wait.ts).
 */
import { get, type IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import WebSocket from "ws";
import type { RealtimeFrame, SystemData } from "~/lib/realtime/frames";
import { waitFor } from "./wait";

export interface SseEvent {
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: IncomingMessage["headers"];
  /** The JSON body of a refused (non-200) request. */
  body: unknown;
  /** Every event, heartbeats ("ping") included. */
  events: SseEvent[];
  /** The data of each "message" event, parsed. */
  frames: RealtimeFrame[];
  /** True once the server ended the stream. */
  ended(): boolean;
  /** Resolves with the first frame matching `match` (already received or still to come). */
  next(match: (frame: RealtimeFrame) => boolean, what?: string, timeoutMs?: number): Promise<RealtimeFrame>;
  close(): void;
}

/**
 * Opens `url` as an event stream and resolves once the response head arrived: for a 200 the
 * stream keeps being read into `events`/`frames`; otherwise `body` holds the parsed JSON error.
 * With `onFrame`, frames other than system ones go to it instead of `frames` (benchmarks).
 */
export function openSse(url: string, onFrame?: (frame: RealtimeFrame, receivedAt: number) => void): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, headers: { Accept: "text/event-stream", "Accept-Encoding": "gzip, deflate, br" } }, (response) => {
      const events: SseEvent[] = [];
      const frames: RealtimeFrame[] = [];
      let ended = false;
      let buffer = "";
      let rawBody = "";
      const client: SseClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: undefined,
        events,
        frames,
        ended: () => ended,
        next: (match, what = "a matching frame", timeoutMs = 10_000) => waitFor(() => frames.find(match), what, timeoutMs),
        close: () => request.destroy(),
      };
      response.on("close", () => (ended = true));
      response.on("error", () => (ended = true));
      if (client.status !== 200) {
        // Refusals are ordinary JSON responses, compressed like any other.
        const encoding = response.headers["content-encoding"];
        const decoder = encoding === "br" ? createBrotliDecompress() : encoding === "gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : null;
        const body: Readable = decoder ? response.pipe(decoder) : response;
        body.setEncoding("utf8");
        body.on("data", (chunk: string) => (rawBody += chunk));
        body.on("end", () => {
          try {
            client.body = JSON.parse(rawBody);
          } catch {
            client.body = rawBody;
          }
          resolve(client);
        });
        return;
      }
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const receivedAt = performance.now();
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          let event = "message";
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
          }
          if (event !== "message") {
            events.push({ event, data: data.join("\n") });
            continue;
          }
          const frame = JSON.parse(data.join("\n")) as RealtimeFrame;
          if (onFrame && frame.channel !== "system") {
            onFrame(frame, receivedAt);
            continue;
          }
          events.push({ event, data: data.join("\n") });
          frames.push(frame);
        }
      });
      resolve(client);
    });
    request.on("error", reject);
  });
}

export interface WsClient {
  socket: WebSocket;
  frames: RealtimeFrame[];
  /** The close code and reason once the connection closed. */
  closed: { code: number; reason: string } | null;
  send(frame: unknown): void;
  next(match: (frame: RealtimeFrame) => boolean, what?: string, timeoutMs?: number): Promise<RealtimeFrame>;
  /** Resolves with the close code and reason. */
  waitClosed(timeoutMs?: number): Promise<{ code: number; reason: string }>;
  /** Sends auth and resolves with the "authenticated" frame. */
  auth(apiToken: string): Promise<RealtimeFrame>;
  /** Sends subscribe and resolves with the system answer about that channel (subscribed or error). */
  subscribe(channel: string): Promise<SystemData>;
  close(): void;
}

/**
 * Connects to the websocket at `url` (ws://…/api/ws) and resolves once it is open. With
 * `onFrame`, frames other than system ones go to it instead of `frames` (benchmarks).
 */
export function openWs(url: string, options: WebSocket.ClientOptions = {}, onFrame?: (frame: RealtimeFrame, receivedAt: number) => void): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    const frames: RealtimeFrame[] = [];
    const client: WsClient = {
      socket,
      frames,
      closed: null,
      send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
      next: (match, what = "a matching frame", timeoutMs = 10_000) => waitFor(() => frames.find(match), what, timeoutMs),
      waitClosed: (timeoutMs = 10_000) => waitFor(() => client.closed ?? undefined, "the websocket to close", timeoutMs),
      async auth(apiToken) {
        client.send({ type: "auth", apiToken });
        return client.next((frame) => frame.channel === "system" && (frame.data as SystemData).type === "authenticated", "authenticated");
      },
      async subscribe(channel) {
        const before = frames.length;
        client.send({ type: "subscribe", channel });
        const answer = await waitFor(
          () =>
            frames.slice(before).find((frame) => {
              const data = frame.data as SystemData & { channel?: string };
              return frame.channel === "system" && data.channel === channel && (data.type === "subscribed" || data.type === "error");
            }),
          `the answer to subscribing to ${channel}`,
        );
        return answer.data as SystemData;
      },
      close: () => socket.close(),
    };
    socket.on("message", (raw) => {
      const receivedAt = performance.now();
      const frame = JSON.parse(raw.toString()) as RealtimeFrame;
      if (onFrame && frame.channel !== "system") onFrame(frame, receivedAt);
      else frames.push(frame);
    });
    socket.on("close", (code, reason) => (client.closed = { code, reason: reason.toString() }));
    socket.once("open", () => resolve(client));
    socket.once("error", (error) => {
      if (socket.readyState !== WebSocket.OPEN) reject(error);
    });
  });
}

/** Whether `frame` is a system error with `code`. */
export const isSystemError = (code: string) => (frame: RealtimeFrame) =>
  frame.channel === "system" && (frame.data as SystemData).type === "error" && (frame.data as { code: string }).code === code;
