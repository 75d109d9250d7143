import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RealtimeFrame } from "~/lib/realtime/frames";
import { parseFrame, RealtimeClient, sseUrl, webSocketUrl, type RealtimeEnvironment } from "./realtime-client";

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(frame: RealtimeFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

class FakeEventSource {
  static all: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  close() {
    this.readyState = 2;
  }
}

const timing = { pingIntervalMs: 25_000, reconnectRetries: 6, reconnectDelayMs: 1000 };

function environment(): RealtimeEnvironment {
  return {
    WebSocket: FakeSocket as unknown as RealtimeEnvironment["WebSocket"],
    EventSource: FakeEventSource as unknown as RealtimeEnvironment["EventSource"],
    origin: "http://127.0.0.1:3000",
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  };
}

function makeClient(transport: "ws" | "sse" = "ws") {
  const frames: RealtimeFrame[] = [];
  const client = new RealtimeClient({ apiToken: "token-123456789012345", transport, onFrame: (f) => frames.push(f), timing, environment: environment() });
  return { client, frames };
}

const last = <T>(list: T[]) => list[list.length - 1]!;

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  FakeEventSource.all = [];
});
afterEach(() => vi.useRealTimers());

describe("RealtimeClient over the websocket (docs/product/realtime.md#ping-and-reconnect)", () => {
  it("authenticates with the apiToken, subscribes to each channel and pings every 25 000 ms", () => {
    const { client, frames } = makeClient();
    client.subscribe("notifications");
    client.start();
    const socket = last(FakeSocket.all);
    expect(socket.url).toBe("ws://127.0.0.1:3000/api/ws");
    socket.open();
    client.subscribe("conversation:group:4");
    expect(socket.sent).toEqual([
      { type: "auth", apiToken: "token-123456789012345" },
      { type: "subscribe", channel: "notifications" },
      { type: "subscribe", channel: "conversation:group:4" },
    ]);
    vi.advanceTimersByTime(24_999);
    expect(socket.sent).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(last(socket.sent)).toEqual({ type: "ping" });
    socket.receive({ channel: "notifications", data: { title: "Иван оценил ваш пост" } });
    expect(frames).toEqual([{ channel: "notifications", data: { title: "Иван оценил ваш пост" } }]);
    client.unsubscribe("conversation:group:4");
    expect(last(socket.sent)).toEqual({ type: "unsubscribe", channel: "conversation:group:4" });
    client.close();
  });

  it("sends typing frames only for a subscribed conversation on the websocket (docs/product/conversations.md#typing)", () => {
    const { client } = makeClient();
    client.subscribe("conversation:personal:7");
    client.start();
    const socket = last(FakeSocket.all);
    socket.open();
    client.typing("conversation:personal:7");
    client.typing("conversation:personal:8");
    expect(socket.sent.filter((f) => (f as { type: string }).type === "typing")).toEqual([{ type: "typing", channel: "conversation:personal:7" }]);
    client.close();
    const sse = makeClient("sse");
    sse.client.subscribe("conversation:personal:7");
    sse.client.start();
    expect(() => sse.client.typing("conversation:personal:7")).not.toThrow();
    sse.client.close();
  });

  it("reconnects up to 6 times 1000 ms apart, then falls back to server-sent events", () => {
    const { client } = makeClient();
    client.subscribe("notifications");
    client.start();
    last(FakeSocket.all).drop();
    for (let attempt = 1; attempt <= 6; attempt++) {
      vi.advanceTimersByTime(999);
      expect(FakeSocket.all).toHaveLength(attempt);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all).toHaveLength(attempt + 1);
      last(FakeSocket.all).drop();
    }
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(7);
    expect(client.activeTransport).toBe("sse");
    expect(FakeEventSource.all.map((s) => s.url)).toEqual(["http://127.0.0.1:3000/api/sse?type=notifications&api-token=token-123456789012345"]);
    client.close();
  });

  it("starts counting again after a connection that authenticated", () => {
    const { client } = makeClient();
    client.start();
    for (let round = 0; round < 3; round++) {
      const socket = last(FakeSocket.all);
      socket.open();
      socket.receive({ channel: "system", data: { type: "authenticated", userId: 1 } });
      for (let i = 0; i < 5; i++) {
        last(FakeSocket.all).drop();
        vi.advanceTimersByTime(1000);
      }
    }
    expect(client.activeTransport).toBe("ws");
    client.close();
  });

  it("stops for good when the server refuses the token (4401)", () => {
    const { client } = makeClient();
    client.start();
    last(FakeSocket.all).drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeEventSource.all).toHaveLength(0);
  });
});

describe("RealtimeClient over server-sent events", () => {
  it("opens its streams at the configured path", () => {
    const client = new RealtimeClient({ apiToken: "t", transport: "sse", ssePath: "/live/events", onFrame: () => {}, timing, environment: environment() });
    client.subscribe("notifications");
    client.start();
    expect(FakeEventSource.all.map((s) => s.url)).toEqual(["http://127.0.0.1:3000/live/events?type=notifications&api-token=t"]);
    client.close();
  });

  it("opens one stream per channel with type, id and api-token, and reopens a refused one", () => {
    const { client, frames } = makeClient("sse");
    client.start();
    client.subscribe("notifications");
    client.subscribe("conversation:personal:9");
    client.subscribe("conversation:personal:9");
    client.subscribe("nonsense");
    expect(FakeSocket.all).toHaveLength(0);
    expect(FakeEventSource.all.map((s) => s.url)).toEqual([
      "http://127.0.0.1:3000/api/sse?type=notifications&api-token=token-123456789012345",
      "http://127.0.0.1:3000/api/sse?type=personal&id=9&api-token=token-123456789012345",
    ]);
    const stream = FakeEventSource.all[1]!;
    stream.onmessage?.({ data: JSON.stringify({ channel: "conversation:personal:9", data: { type: "message.deleted", messageId: 1, conversationId: 9 } }) });
    expect(frames).toHaveLength(1);
    stream.readyState = 2;
    stream.onerror?.();
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.all).toHaveLength(3);
    client.unsubscribe("conversation:personal:9");
    expect(FakeEventSource.all[2]!.readyState).toBe(2);
    client.close();
  });
});

describe("RealtimeClient when the server ends a stream for good", () => {
  const sse = (stream: FakeEventSource, frame: RealtimeFrame) => stream.onmessage?.({ data: JSON.stringify(frame) });
  /** The server closed the stream: EventSource would reconnect and be refused (404, 401). */
  const refuse = (stream: FakeEventSource) => {
    stream.readyState = 2;
    stream.onerror?.();
  };

  it("does not reopen a conversation stream after «unsubscribed» (removed from the conversation)", () => {
    const { client, frames } = makeClient("sse");
    client.subscribe("notifications");
    client.subscribe("conversation:group:4");
    client.start();
    const [notifications, group] = FakeEventSource.all;
    sse(group!, { channel: "system", data: { type: "unsubscribed", channel: "conversation:group:4" } });
    // The page hears of it, and the stream is closed before EventSource can try again.
    expect(frames).toEqual([{ channel: "system", data: { type: "unsubscribed", channel: "conversation:group:4" } }]);
    expect(group!.readyState).toBe(2);
    refuse(group!);
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.all).toHaveLength(2);
    // The other channel keeps its stream.
    expect(notifications!.readyState).toBe(0);
    client.close();
  });

  it("stops the whole client after «invalid_token» (the apiToken was rotated), as the websocket's 4401", () => {
    const statuses: string[] = [];
    const frames: RealtimeFrame[] = [];
    const client = new RealtimeClient({
      apiToken: "token-123456789012345",
      transport: "sse",
      onFrame: (f) => frames.push(f),
      onStatus: (status) => statuses.push(status),
      timing,
      environment: environment(),
    });
    client.subscribe("notifications");
    client.subscribe("conversation:personal:9");
    client.start();
    const [notifications, personal] = FakeEventSource.all;
    sse(notifications!, { channel: "system", data: { type: "error", code: "invalid_token", message: "Токен отозван, войдите заново." } });
    expect(frames).toHaveLength(1);
    expect(notifications!.readyState).toBe(2);
    expect(personal!.readyState).toBe(2);
    expect(last(statuses)).toBe("closed");
    refuse(notifications!);
    refuse(personal!);
    client.subscribe("conversation:group:1");
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.all).toHaveLength(2);
  });

  it("forgets a channel the websocket was unsubscribed from, so a fallback opens no stream for it", () => {
    const { client } = makeClient();
    client.subscribe("notifications");
    client.subscribe("conversation:group:4");
    client.start();
    const socket = last(FakeSocket.all);
    socket.open();
    socket.receive({ channel: "system", data: { type: "unsubscribed", channel: "conversation:group:4" } });
    // The answer to the page's own unsubscribe (left and came back at once) forgets nothing.
    client.subscribe("conversation:personal:9");
    client.unsubscribe("conversation:personal:9");
    client.subscribe("conversation:personal:9");
    socket.receive({ channel: "system", data: { type: "unsubscribed", channel: "conversation:personal:9" } });
    socket.receive({ channel: "system", data: { type: "subscribed", channel: "conversation:personal:9" } });
    for (let attempt = 0; attempt <= 6; attempt++) {
      last(FakeSocket.all).drop();
      vi.advanceTimersByTime(1000);
    }
    expect(client.activeTransport).toBe("sse");
    expect(FakeEventSource.all.map((s) => s.url)).toEqual([
      "http://127.0.0.1:3000/api/sse?type=notifications&api-token=token-123456789012345",
      "http://127.0.0.1:3000/api/sse?type=personal&id=9&api-token=token-123456789012345",
    ]);
    client.close();
  });
});

describe("addresses and frames", () => {
  it("builds the websocket and event-stream addresses", () => {
    expect(webSocketUrl("https://shodka.example")).toBe("wss://shodka.example/api/ws");
    expect(sseUrl("http://x", "conversation:group:3", "t")).toBe("http://x/api/sse?type=group&id=3&api-token=t");
    expect(sseUrl("http://x", "elsewhere", "t")).toBeNull();
    // REALTIME_SSE_PATH: a proxy maps another path to the server's /api/sse.
    expect(sseUrl("https://x", "notifications", "t", "/live/events")).toBe("https://x/live/events?type=notifications&api-token=t");
  });

  it("accepts only {channel, data} JSON as a frame", () => {
    expect(parseFrame('{"channel":"notifications","data":1}')).toEqual({ channel: "notifications", data: 1 });
    expect(parseFrame("not json")).toBeNull();
    expect(parseFrame('{"data":1}')).toBeNull();
    expect(parseFrame(42)).toBeNull();
  });
});
