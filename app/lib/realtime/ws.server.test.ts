/**
 * The websocket transport in one process, on a real HTTP server and the test database: what the
 * HTTP suite cannot reach from outside — token rotation while connected, removal from a
 * conversation, the auth timeout, liveness pings, frame limits and the shutdown close
 * (issue 4 "Realtime transports").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { conversationMembers, conversations, sessions } from "~/db/schema";
import { endOtherSessions } from "~/domain/users/sessions.server";
import { openSession } from "~/lib/session.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/factories";

type Member = Awaited<ReturnType<typeof makeMember>>;
import { isSystemError, openWs, type WsClient } from "../../../tests/setup/realtime";
import { getConfig } from "../config.server";
import { REALTIME_TIMING, WS_CLOSE } from "./frames";
import { realtimeHub } from "./hub.server";
import { attachWebSocketServer, WS_LIMITS, type WebSocketTransport } from "./ws.server";
import { dropMembership, groupOf, isData, removeRightAfterTheCheck } from "../../../tests/setup/realtime-access";
import { waitFor } from "../../../tests/setup/wait";
import type * as access from "./access.server";

// mayReceive is wrapped so a test can remove a member right after their access was checked.
vi.mock("./access.server", async (importOriginal) => {
  const actual = await importOriginal<typeof access>();
  return { ...actual, mayReceive: vi.fn(actual.mayReceive) };
});

describe(`websocket transport (${engine})`, () => {
  let database: TestDatabase;
  let server: Server;
  let transport: WebSocketTransport;
  let url: string;
  let alice: Member;
  let bob: Member;
  let groupId: number;
  const clients: WsClient[] = [];

  const connect = async (options = {}) => {
    const client = await openWs(url, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    database = await createTestDatabase({ migrateOwn: true });
    const { db } = database;
    alice = await makeMember(db);
    bob = await makeMember(db);
    const [group] = await db.insert(conversations).values({ kind: "group", name: "Обмен", ownerId: alice.id }).returning();
    groupId = group!.id;
    await db.insert(conversationMembers).values([
      { conversationId: groupId, userId: alice.id },
      { conversationId: groupId, userId: bob.id },
    ]);
    server = createServer((_req, res) => res.writeHead(404).end());
    transport = attachWebSocketServer(server, async () => db, { authTimeoutMs: 300, livenessIntervalMs: 200 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/ws`;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    transport.close();
    await new Promise((resolve) => server.close(resolve));
    await database.destroy();
  });

  it("closes with 4408 when no auth frame arrives in time", async () => {
    const client = await connect();
    expect(await client.waitClosed()).toEqual({ code: WS_CLOSE.authTimeout, reason: "Нет авторизации" });
  });

  it("takes the auth timeout from the configuration (REALTIME_AUTH_TIMEOUT_MS) when not given", async () => {
    const config = getConfig();
    const configured = config.realtimeAuthTimeoutMs;
    config.realtimeAuthTimeoutMs = 150;
    const other = createServer();
    const otherTransport = attachWebSocketServer(other, async () => database.db);
    config.realtimeAuthTimeoutMs = configured;
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const client = await openWs(`ws://127.0.0.1:${(other.address() as AddressInfo).port}/api/ws`);
      const opened = Date.now();
      expect((await client.waitClosed()).code).toBe(WS_CLOSE.authTimeout);
      expect(Date.now() - opened).toBeLessThan(REALTIME_TIMING.authTimeoutMs);
    } finally {
      otherTransport.close();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("closes with 4401 for an unknown token", async () => {
    const client = await connect();
    client.send({ type: "auth", apiToken: "x".repeat(43) });
    expect((await client.waitClosed()).code).toBe(WS_CLOSE.unauthorized);
  });

  it("answers malformed frames with bad_frame and subscribing before auth with not_authenticated, keeping the socket open", async () => {
    const client = await connect();
    client.send("{not json");
    await client.next(isSystemError("bad_frame"), "bad_frame for broken JSON");
    client.send({ type: "dance" });
    await waitFor(() => client.frames.filter(isSystemError("bad_frame")).length === 2, "bad_frame for an unknown type");
    client.send({ type: "subscribe", channel: "notifications" });
    const refused = await client.next(isSystemError("not_authenticated"));
    expect((refused.data as { message: string }).message).toMatch(/auth/);
    client.send({ type: "ping" });
    await client.next(isData("pong"), "pong");
    await client.auth(alice.apiToken);
    expect(await client.subscribe("conversation:group:abc")).toMatchObject({ type: "error", code: "bad_frame" });
    expect(client.closed).toBeNull();
  });

  it("relays a member's typing to the conversation's subscribers, once per interval, only on a channel the socket is subscribed to", async () => {
    const channel = `conversation:group:${groupId}`;
    const typist = await connect();
    await typist.auth(alice.apiToken);
    typist.send({ type: "typing", channel });
    expect((await typist.next(isSystemError("channel_forbidden"), "refused before subscribing")).data).toMatchObject({ channel });
    const reader = await connect();
    await reader.auth(bob.apiToken);
    await reader.subscribe(channel);
    await typist.subscribe(channel);
    // Two in a row: the second falls within the relay interval and goes nowhere.
    typist.send({ type: "typing", channel });
    typist.send({ type: "typing", channel });
    typist.send({ type: "ping" });
    await typist.next(isData("pong"), "both typing frames handled");
    await realtimeHub(database.db).publishToChannel({ kind: "group", conversationId: groupId }, { type: "marker" });
    await reader.next(isData("marker"), "the marker after the typing frames");
    const typing = reader.frames.filter(isData("typing"));
    expect(typing).toEqual([{ channel, data: { type: "typing", user: { id: alice.id, username: alice.username } } }]);
  });

  it("closes with 1009 a frame above the size cap and with 1008 a flood of frames", async () => {
    const big = await connect();
    big.send({ type: "auth", apiToken: "я".repeat(WS_LIMITS.maxPayloadBytes) });
    expect((await big.waitClosed()).code).toBe(1009);

    const flood = await connect();
    await flood.auth(alice.apiToken);
    for (let i = 0; i <= WS_LIMITS.framesPerWindow; i++) flood.send({ type: "ping" });
    expect(await flood.waitClosed()).toEqual({ code: 1008, reason: "Слишком много сообщений" });
  });

  it("delivers a channel's frames after subscribed and none after unsubscribed", async () => {
    const client = await connect();
    await client.auth(bob.apiToken);
    expect(await client.subscribe(`conversation:group:${groupId}`)).toEqual({ type: "subscribed", channel: `conversation:group:${groupId}` });
    const hub = realtimeHub(database.db);
    await hub.publishToChannel({ kind: "group", conversationId: groupId }, { type: "message.created", n: 1 });
    await client.next(isData("message.created"), "the first frame");
    client.send({ type: "unsubscribe", channel: `conversation:group:${groupId}` });
    await client.next(isData("unsubscribed"), "unsubscribed");
    expect(await client.subscribe("notifications")).toMatchObject({ type: "subscribed" });
    await hub.publishToChannel({ kind: "group", conversationId: groupId }, { type: "message.created", n: 2 });
    await hub.publishToUser(bob.id, { type: "marker" });
    await client.next(isData("marker"), "the marker after the second message");
    expect(client.frames.filter(isData("message.created"))).toHaveLength(1);
  });

  it("refuses subscriptions above the per-socket cap with too_many_subscriptions", async () => {
    const { db } = database;
    const groups = await db
      .insert(conversations)
      .values(Array.from({ length: WS_LIMITS.maxSubscriptions }, (_, i) => ({ kind: "group" as const, name: `Группа ${i}`, ownerId: bob.id })))
      .returning({ id: conversations.id });
    await db.insert(conversationMembers).values(groups.map((group) => ({ conversationId: group.id, userId: bob.id })));
    const client = await connect();
    await client.auth(bob.apiToken);
    for (const group of groups) expect(await client.subscribe(`conversation:group:${group.id}`)).toMatchObject({ type: "subscribed" });
    expect(await client.subscribe("notifications")).toMatchObject({ type: "error", code: "too_many_subscriptions" });
    client.send({ type: "unsubscribe", channel: `conversation:group:${groups[0]!.id}` });
    expect(await client.subscribe("notifications")).toEqual({ type: "subscribed", channel: "notifications" });
  });

  it("closes every socket of a member with 4401 when their token is rotated", async () => {
    const [phone, laptop, other] = [await connect(), await connect(), await connect()];
    await phone.auth(bob.apiToken);
    await laptop.auth(bob.apiToken);
    await other.auth(alice.apiToken);
    await realtimeHub(database.db).revokeUser(bob.id);
    expect(await phone.waitClosed()).toEqual({ code: WS_CLOSE.unauthorized, reason: "Токен отозван" });
    expect((await laptop.waitClosed()).code).toBe(WS_CLOSE.unauthorized);
    other.send({ type: "ping" });
    await other.next(isData("pong"), "the other member's pong");
    expect(other.closed).toBeNull();
  });

  it("closes only the sockets of an ended session with 4401 (issue 13 item 1), and refuses its token afterwards", async () => {
    const member = await makeMember(database.db);
    const otherDevice = await openSession(database.db, member.id, {});
    const [phone, laptop] = [await connect(), await connect()];
    await phone.auth(member.apiToken);
    await laptop.auth(otherDevice.apiToken);
    await endOtherSessions(database.db, member.id, otherDevice.sessionId);
    expect((await phone.waitClosed()).code).toBe(WS_CLOSE.unauthorized);
    laptop.send({ type: "ping" });
    await laptop.next(isData("pong"), "the laptop's pong");
    expect(laptop.closed).toBeNull();
    const again = await connect();
    again.send({ type: "auth", apiToken: member.apiToken });
    expect((await again.waitClosed()).code).toBe(WS_CLOSE.unauthorized);
  });

  it("closes a socket at the next liveness ping when its session row is deleted without a revocation (suspension, expiry)", async () => {
    const member = await makeMember(database.db);
    const socket = await connect();
    await socket.auth(member.apiToken);
    await database.db.delete(sessions).where(eq(sessions.userId, member.id));
    expect((await socket.waitClosed(5000)).code).toBe(WS_CLOSE.unauthorized);
  });

  it("tells a member removed from a conversation that the channel is gone and keeps the socket", async () => {
    const client = await connect();
    await client.auth(bob.apiToken);
    await client.subscribe(`conversation:group:${groupId}`);
    await realtimeHub(database.db).removeFromChannel(bob.id, { kind: "group", conversationId: groupId });
    const gone = await client.next((frame) => frame.channel === "system" && isData("unsubscribed")(frame), "unsubscribed");
    expect(gone.data).toEqual({ type: "unsubscribed", channel: `conversation:group:${groupId}` });
    await realtimeHub(database.db).publishToChannel({ kind: "group", conversationId: groupId }, { type: "message.created" });
    client.send({ type: "ping" });
    await client.next(isData("pong"), "pong");
    expect(client.frames.filter(isData("message.created"))).toEqual([]);
  });

  it("refuses a subscription when the member is removed between the access check and the subscription", async () => {
    const lateGroup = await groupOf(database.db, alice, bob);
    const client = await connect();
    await client.auth(bob.apiToken);
    removeRightAfterTheCheck(database.db, lateGroup, bob.id);
    expect(await client.subscribe(`conversation:group:${lateGroup}`)).toMatchObject({ type: "error", code: "channel_forbidden" });
    await realtimeHub(database.db).publishToChannel({ kind: "group", conversationId: lateGroup }, { type: "message.created" });
    client.send({ type: "ping" });
    await client.next(isData("pong"), "pong");
    expect(client.frames.filter(isData("message.created"))).toEqual([]);
  });

  it("drops a conversation the member lost without a removal message at the next liveness check", async () => {
    const quietGroup = await groupOf(database.db, alice, bob);
    const client = await connect();
    await client.auth(bob.apiToken);
    expect(await client.subscribe(`conversation:group:${quietGroup}`)).toMatchObject({ type: "subscribed" });
    expect(await client.subscribe("notifications")).toMatchObject({ type: "subscribed" });
    await dropMembership(database.db, quietGroup, bob.id);
    const gone = await client.next((frame) => frame.channel === "system" && isData("unsubscribed")(frame), "unsubscribed", 5000);
    expect(gone.data).toEqual({ type: "unsubscribed", channel: `conversation:group:${quietGroup}` });
    await realtimeHub(database.db).publishToChannel({ kind: "group", conversationId: quietGroup }, { type: "message.created" });
    await realtimeHub(database.db).publishToUser(bob.id, { type: "marker" });
    await client.next(isData("marker"), "the notifications marker");
    expect(client.frames.filter(isData("message.created"))).toEqual([]);
    expect(client.closed).toBeNull();
  });

  it("terminates a socket that stops answering ws-level pings and keeps one that answers", async () => {
    const silent = await connect({ autoPong: false });
    const lively = await connect();
    await silent.auth(alice.apiToken);
    await lively.auth(alice.apiToken);
    expect((await silent.waitClosed(5000)).code).toBe(1006);
    expect(lively.closed).toBeNull();
  });

  it("closes every socket with 1001 when the server shuts down", async () => {
    const client = await connect();
    await client.auth(alice.apiToken);
    expect(transport.clientCount()).toBeGreaterThan(0);
    transport.close();
    expect(await client.waitClosed()).toEqual({ code: WS_CLOSE.goingAway, reason: "Сервер перезапускается" });
    await expect(openWs(url)).rejects.toThrow(/503/);
  });
});

describe(`websocket connection caps (${engine}, issue 13 item 5)`, () => {
  let database: TestDatabase;
  let server: Server;
  let transport: WebSocketTransport;
  let url: string;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ migrateOwn: true });
    server = createServer((_req, res) => res.writeHead(404).end());
    transport = attachWebSocketServer(server, async () => database.db, {
      caps: { perAddress: 3, perMember: 2 },
      // Tests pose as client addresses through a header, as a trusted proxy would say.
      clientAddress: (request) => String(request.headers["x-test-address"] ?? "unknown"),
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/ws`;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    transport.close();
    await new Promise((resolve) => server.close(resolve));
    await database.destroy();
  });

  const connect = async (address: string) => {
    const client = await openWs(url, { headers: { "x-test-address": address } });
    clients.push(client);
    return client;
  };

  it("refuses an upgrade beyond the per-address cap with 429, and takes one again once a socket closes", async () => {
    const open = [await connect("198.51.100.7"), await connect("198.51.100.7"), await connect("198.51.100.7")];
    await expect(openWs(url, { headers: { "x-test-address": "198.51.100.7" } })).rejects.toThrow(/429/);
    await connect("198.51.100.8");
    open[0]!.close();
    await open[0]!.waitClosed();
    await waitFor(async () => {
      try {
        const client = await connect("198.51.100.7");
        return client;
      } catch {
        return undefined;
      }
    }, "a slot of the address to free");
  });

  it("closes a member's socket beyond the per-member cap with 4429, from any address", async () => {
    const member = await makeMember(database.db);
    const [first, second, third] = [await connect("203.0.113.1"), await connect("203.0.113.2"), await connect("203.0.113.3")];
    await first.auth(member.apiToken);
    await second.auth(member.apiToken);
    third.send({ type: "auth", apiToken: member.apiToken });
    expect(await third.waitClosed()).toEqual({ code: WS_CLOSE.tooManyConnections, reason: "Слишком много соединений" });
    expect(first.closed).toBeNull();
  });
});
