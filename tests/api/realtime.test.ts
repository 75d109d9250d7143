/**
 * Realtime over HTTP (issue 4 "Realtime transports"; docs/product/realtime.md#access): who may subscribe to what
 * over server-sent events (/api/sse) and the websocket (/api/ws), and delivery of a message
 * sent through the conversations API to members listening on both transports.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../setup/server";
import { waitFor } from "../setup/wait";
import type { RealtimeFrame, SystemData } from "~/lib/realtime/frames";
import { isSystemError, openSse, openWs, type SseClient, type WsClient } from "../setup/realtime";
import { Client } from "./client";
import { createGroup, member, personalWith, postMessage, type Member } from "./members";

/** The public conversation: inserted by migration 0005 as the first conversation, and opened as a group. */
async function publicConversationId(who: Member): Promise<number> {
  const response = await who.client.fetch("/api/profile/conversation/group/1");
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: { id: number; kind: string } };
  expect(data.kind).toBe("public");
  return data.id;
}

const baseUrl = () => new Client().baseUrl;
const wsUrl = () => `${baseUrl().replace(/^http/, "ws")}/api/ws`;

function sseUrl(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  return `${baseUrl()}/api/sse?${params}`;
}

const subscribedTo = (channel: string) => (frame: RealtimeFrame) =>
  frame.channel === "system" && (frame.data as SystemData).type === "subscribed" && (frame.data as { channel: string }).channel === channel;

describe("subscribing to realtime channels: who may receive what", () => {
  let alice: Member;
  let bob: Member;
  let carol: Member;
  /** alice ↔ bob */
  let ours: number;
  /** bob ↔ carol: alice is not in it */
  let theirs: number;
  /** owned by bob, with carol; alice is not in it */
  let foreignGroup: number;
  /** owned by alice, with bob */
  let ownGroup: number;
  let publicId: number;

  beforeAll(async () => {
    [alice, bob, carol] = await Promise.all([member(), member(), member()]);
    ours = await personalWith(alice, bob.id);
    theirs = await personalWith(bob, carol.id);
    ownGroup = await createGroup(alice, "Свои", [bob]);
    foreignGroup = await createGroup(bob, "Чужие", [carol]);
    publicId = await publicConversationId(alice);
  });

  /** [case, type, id, expected: allowed | 404] as alice with her own token. */
  const channels = (): [string, "group" | "personal" | "notifications", number | undefined, "allowed" | "refused"][] => [
    ["her own personal conversation", "personal", ours, "allowed"],
    ["another pair's personal conversation", "personal", theirs, "refused"],
    ["a group she is in", "group", ownGroup, "allowed"],
    ["a group she is not in", "group", foreignGroup, "refused"],
    ["the public conversation (as a group channel)", "group", publicId, "allowed"],
    ["her own personal conversation named as a group", "group", ours, "refused"],
    ["a conversation that does not exist", "group", 2_000_000_000, "refused"],
    ["her notifications", "notifications", undefined, "allowed"],
  ];

  it("over server-sent events: 200 and a stream for her channels, 404 for everyone else's", async () => {
    for (const [name, type, id, expected] of channels()) {
      const stream = await openSse(sseUrl({ type, id, "api-token": alice.apiToken }));
      try {
        if (expected === "allowed") {
          expect(stream.status, name).toBe(200);
          expect(stream.headers["content-type"], name).toMatch(/^text\/event-stream/);
          expect(stream.headers["cache-control"], name).toBe("no-cache");
          expect(stream.headers["x-accel-buffering"], name).toBe("no");
          // Sent Accept-Encoding: gzip, the stream must still not be compressed (it would be held back).
          expect(stream.headers["content-encoding"], name).toBeUndefined();
          // Answered before Express (decision 0037), a stream carries what every answer carries.
          expect(stream.headers["x-request-id"], name).toMatch(/^[0-9a-f-]{36}$/);
          expect(stream.headers["x-content-type-options"], name).toBe("nosniff");
          const channel = type === "notifications" ? "notifications" : `conversation:${type}:${id}`;
          await stream.next(subscribedTo(channel), `${name}: subscribed`);
        } else {
          expect(stream.status, name).toBe(404);
          expect(stream.body, name).toMatchObject({ success: false, errors: { code: "conversation_not_found", message: "Беседа не найдена" } });
        }
      } finally {
        stream.close();
      }
    }
  });

  it("over server-sent events: 401 invalid_token without a valid token, 400 bad_query for a query naming no channel", async () => {
    for (const token of [undefined, "", "not-a-token-at-all-but-long-enough", `${alice.apiToken}x`]) {
      const stream = await openSse(sseUrl({ type: "personal", id: ours, "api-token": token }));
      expect(stream.status, String(token)).toBe(401);
      expect(stream.body).toMatchObject({ success: false, errors: { code: "invalid_token", message: "Недействительный или отозванный api-token." } });
    }
    for (const query of [{}, { type: "personal" }, { type: "group", id: "abc" }, { type: "channel", id: ours }, { type: "group", id: -1 }]) {
      const stream = await openSse(sseUrl({ ...query, "api-token": alice.apiToken }));
      expect(stream.status, JSON.stringify(query)).toBe(400);
      expect(stream.body).toMatchObject({ success: false, errors: { code: "bad_query" } });
    }
    const post = await alice.client.fetch(`/api/sse?type=notifications&api-token=${alice.apiToken}`, { method: "POST" });
    expect(post.status).toBe(405);
  });

  it("over the websocket: subscribed for her channels, channel_forbidden for everyone else's, the socket staying open", async () => {
    const socket = await openWs(wsUrl());
    try {
      await socket.auth(alice.apiToken);
      for (const [name, type, id, expected] of channels()) {
        const channel = type === "notifications" ? "notifications" : `conversation:${type}:${id}`;
        const answer = await socket.subscribe(channel);
        if (expected === "allowed") expect(answer, name).toEqual({ type: "subscribed", channel });
        else expect(answer, name).toMatchObject({ type: "error", code: "channel_forbidden", channel, message: "Нет доступа к этому каналу." });
      }
      expect(socket.closed).toBeNull();
    } finally {
      socket.close();
    }
  });

  it("over the websocket: closes with 4401 for a missing or unknown token and refuses subscribing before auth", async () => {
    for (const frame of [{ type: "auth" }, { type: "auth", apiToken: "" }, { type: "auth", apiToken: `${alice.apiToken}x` }]) {
      const socket = await openWs(wsUrl());
      socket.send(frame);
      expect(await socket.waitClosed(), JSON.stringify(frame)).toEqual({ code: 4401, reason: "Недействительный api-token" });
    }
    const early = await openWs(wsUrl());
    try {
      early.send({ type: "subscribe", channel: `conversation:personal:${ours}` });
      await early.next(isSystemError("not_authenticated"), "not_authenticated");
      early.send("не JSON");
      await early.next(isSystemError("bad_frame"), "bad_frame");
      expect(early.closed).toBeNull();
    } finally {
      early.close();
    }
  });

  it("refuses a websocket upgrade on any other path", async () => {
    await expect(openWs(`${wsUrl()}/other`)).rejects.toThrow();
  });
});

describe("delivery of a sent message over both transports", () => {
  it("reaches the other member of a personal conversation over SSE and the websocket, and not an outsider", async () => {
    const [alice, bob, carol] = await Promise.all([member(), member(), member()]);
    const conversationId = await personalWith(alice, bob.id);
    const channel = `conversation:personal:${conversationId}`;
    const sse = await openSse(sseUrl({ type: "personal", id: conversationId, "api-token": bob.apiToken }));
    const socket = await openWs(wsUrl());
    const outsider = await openWs(wsUrl());
    try {
      await sse.next(subscribedTo(channel), "SSE subscribed");
      await socket.auth(bob.apiToken);
      expect(await socket.subscribe(channel)).toEqual({ type: "subscribed", channel });
      await outsider.auth(carol.apiToken);
      expect(await outsider.subscribe(channel)).toMatchObject({ type: "error", code: "channel_forbidden" });

      const sent = await postMessage(alice, "personal", conversationId, "Привет, Боб! Сделка в силе?");
      const isCreated = (frame: RealtimeFrame) => frame.channel === channel && (frame.data as { type: string }).type === "message.created";
      const overSse = await sse.next(isCreated, "the message over SSE");
      const overWs = await socket.next(isCreated, "the message over the websocket");
      expect(overSse).toEqual({ channel, data: { type: "message.created", message: sent } });
      expect(overWs).toEqual(overSse);
      expect(sent).toMatchObject({ conversationId, body: "Привет, Боб! Сделка в силе?", author: { id: alice.id } });
      expect(outsider.frames.filter((frame) => frame.channel === channel)).toEqual([]);
    } finally {
      sse.close();
      socket.close();
      outsider.close();
    }
  });

  it("carries typing, read receipts and presence between the two members of a personal conversation (docs/product/conversations.md#typing)", async () => {
    const [alice, bob] = await Promise.all([member(), member()]);
    const conversationId = await personalWith(alice, bob.id);
    const channel = `conversation:personal:${conversationId}`;
    const sent = await postMessage(alice, "personal", conversationId, "Когда созвонимся?");
    const aliceWs = await openWs(wsUrl());
    let bobSse: SseClient | null = null;
    let bobWs: WsClient | null = null;
    try {
      await aliceWs.auth(alice.apiToken);
      expect(await aliceWs.subscribe(channel)).toEqual({ type: "subscribed", channel });
      expect(await aliceWs.subscribe("notifications")).toEqual({ type: "subscribed", channel: "notifications" });
      bobSse = await openSse(sseUrl({ type: "personal", id: conversationId, "api-token": bob.apiToken }));
      await bobSse.next(subscribedTo(channel), "SSE subscribed");
      // Bob's event stream made him online: Alice, his peer, hears it on her notifications channel.
      const bobOnline = await aliceWs.next(
        (f) =>
          f.channel === "notifications" &&
          (f.data as { type?: string; userId?: number }).type === "presence" &&
          (f.data as { userId: number }).userId === bob.id,
        "Bob's presence",
      );
      expect(bobOnline.data).toEqual({ type: "presence", userId: bob.id, online: true });

      // Alice types over her websocket: Bob's event stream carries it; nothing is stored.
      aliceWs.send({ type: "typing", channel });
      const typing = await bobSse.next((f) => f.channel === channel && (f.data as { type: string }).type === "typing", "the typing frame");
      expect(typing.data).toEqual({ type: "typing", user: { id: alice.id, username: alice.username } });

      // Bob opens the conversation page: his read marker moves and Alice gets the receipt.
      const page = await bob.client.fetch(`/profile/conversations?personal=${conversationId}`);
      expect(page.status).toBe(200);
      const read = await aliceWs.next((f) => f.channel === channel && (f.data as { type: string }).type === "read", "the read frame");
      expect(read.data).toEqual({ type: "read", userId: bob.id, upTo: sent.id });
      const detail = await alice.client.fetch(`/api/profile/conversation/personal/${conversationId}`);
      expect(((await detail.json()) as { data: { peerReadUpTo: number } }).data.peerReadUpTo).toBe(sent.id);

      // Typing on a channel the socket is not subscribed to is refused.
      bobWs = await openWs(wsUrl());
      await bobWs.auth(bob.apiToken);
      bobWs.send({ type: "typing", channel });
      await bobWs.next(isSystemError("channel_forbidden"), "typing refused before subscribing");
    } finally {
      aliceWs.close();
      bobSse?.close();
      bobWs?.close();
    }
  });

  it("reaches every member listening on a group and on the public conversation", async () => {
    const [owner, guest] = await Promise.all([member(), member()]);
    const groupId = await createGroup(owner, "Покупки", [guest]);
    const publicId = await publicConversationId(owner);
    const listeners: (SseClient | WsClient)[] = [];
    try {
      const sse = await openSse(sseUrl({ type: "group", id: groupId, "api-token": guest.apiToken }));
      const socket = await openWs(wsUrl());
      listeners.push(sse, socket);
      await socket.auth(guest.apiToken);
      await socket.subscribe(`conversation:group:${publicId}`);
      await sse.next(subscribedTo(`conversation:group:${groupId}`));

      const inGroup = await postMessage(owner, "group", groupId, "Кто берёт видеокарту?");
      const inPublic = await postMessage(owner, "group", publicId, "Всем привет из общего чата");
      expect((await sse.next((frame) => frame.channel === `conversation:group:${groupId}`)).data).toEqual({
        type: "message.created",
        message: inGroup,
      });
      expect((await socket.next((frame) => frame.channel === `conversation:group:${publicId}`)).data).toEqual({
        type: "message.created",
        message: inPublic,
      });
    } finally {
      for (const listener of listeners) listener.close();
    }
  });
});

describe("graceful shutdown with realtime clients connected", () => {
  it("ends event streams, closes websockets with 1001 and exits 0 without waiting for them", async () => {
    const server = await startServer({ SEED_DEMO: "0" });
    let exitCode: number | null = null;
    try {
      const someone = await member(server.baseUrl);
      const streams = await Promise.all([
        openSse(`${server.baseUrl}/api/sse?type=notifications&api-token=${someone.apiToken}`),
        openSse(`${server.baseUrl}/api/sse?type=notifications&api-token=${someone.apiToken}`),
      ]);
      for (const stream of streams) await stream.next(subscribedTo("notifications"));
      const sockets = await Promise.all([openWs(`${server.baseUrl.replace(/^http/, "ws")}/api/ws`), openWs(`${server.baseUrl.replace(/^http/, "ws")}/api/ws`)]);
      await sockets[0]!.auth(someone.apiToken);
      // A stream or socket left open would hold server.close() until the server's forced exit
      // (10 s, exit code 1): exit code 0 is what shows shutdown did not wait for them.
      exitCode = await server.stop();
      for (const socket of sockets) expect(await socket.waitClosed()).toEqual({ code: 1001, reason: "Сервер перезапускается" });
      await waitFor(() => streams.every((stream) => stream.ended()), "the streams to end");
    } finally {
      if (exitCode === null) await server.stop();
    }
    expect(exitCode).toBe(0);
    // It starts a server of its own (startServer allows 180 s) and signs a member up: on a loaded
    // machine (npm test's two lanes) that alone passed the 60 s default once.
  }, 240_000);
});
