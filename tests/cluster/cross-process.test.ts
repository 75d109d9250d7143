/**
 * Two server processes behind one PostgreSQL database, as behind a load balancer (issue 4,
 * "Across processes"): a message sent through server A reaches a member listening on server B
 * over server-sent events and over the websocket; a member who was offline finds it in the
 * history and the unread record on B; a frame above NOTIFY's 8000-byte limit crosses through
 * the realtime_frames table; rotating a token in one process closes connections in another.
 * Runs only in the PostgreSQL step of the tests (scripts/test.sh), on a built server.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import type { MessageDto, MessageHistoryDto, UnreadRecordDto } from "~/domain/conversations/types";
import type { RealtimeFrame, SystemData } from "~/lib/realtime/frames";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { Client, csrfFromHtml } from "../api/client";
import { openSse, openWs, type SseClient, type WsClient } from "../setup/realtime";
import { startServer, type RunningServer } from "../setup/server";
import { waitFor } from "../setup/wait";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error("the cluster suite needs TEST_DATABASE_URL (a PostgreSQL server)");

interface Member {
  id: number;
  apiToken: string;
  email: string;
  password: string;
  client: Client;
  csrf: string;
}

/** Registers on `server` and stays signed in there. */
async function register(server: RunningServer): Promise<Member> {
  const client = new Client(server.baseUrl);
  const { email, password } = await client.register();
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; apiToken: string };
  const csrf = csrfFromHtml(await (await client.fetch(`/profile/${me.id}`)).text());
  return { id: me.id, apiToken: me.apiToken, email, password, client, csrf };
}

/** Signs an existing member in on another server (the session lives in the shared database). */
async function signInOn(server: RunningServer, member: Member): Promise<Client> {
  const client = new Client(server.baseUrl);
  const response = await client.signIn(member.email, member.password);
  expect(response.status).toBe(200);
  return client;
}

async function json<T>(client: Client, path: string): Promise<T> {
  const response = await client.fetch(path);
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

describe("realtime across two server processes on one PostgreSQL database", () => {
  const name = `cluster_xp_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), SEED_DEMO: "0", SESSION_SECRET: randomBytes(32).toString("hex") };
  let serverA: RunningServer;
  let serverB: RunningServer;
  let alice: Member;
  let bob: Member;
  let conversationId: number;
  let channel: string;

  const listeners: (SseClient | WsClient)[] = [];
  /** Bob on server B: an event stream and a websocket, both subscribed to the personal conversation. */
  async function listenOnB() {
    const sse = await openSse(`${serverB.baseUrl}/api/sse?type=personal&id=${conversationId}&api-token=${bob.apiToken}`);
    expect(sse.status).toBe(200);
    const ws = await openWs(`${serverB.baseUrl.replace(/^http/, "ws")}/api/ws`);
    listeners.push(sse, ws);
    await sse.next((frame) => frame.channel === "system" && (frame.data as SystemData).type === "subscribed", "SSE subscribed on B");
    await ws.auth(bob.apiToken);
    expect(await ws.subscribe(channel)).toEqual({ type: "subscribed", channel });
    return { sse, ws };
  }

  async function send(body: string): Promise<MessageDto> {
    const response = await alice.client.fetch(`/api/profile/conversation/personal/${conversationId}/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": alice.csrf },
      body: JSON.stringify({ body }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: MessageDto }).data;
  }

  const created = (messageId: number) => (frame: RealtimeFrame) =>
    frame.channel === channel && (frame.data as { type: string; message?: { id: number } }).message?.id === messageId;

  beforeAll(async () => {
    await admin.unsafe(`create database "${name}"`);
    // One after the other: the first applies the migrations, the second finds them applied.
    serverA = await startServer(env);
    serverB = await startServer(env);
    alice = await register(serverA);
    bob = await register(serverA);
    conversationId = (await json<{ id: number }>(alice.client, `/api/profile/conversation/personal/user/${bob.id}`)).id;
    channel = `conversation:personal:${conversationId}`;
  });
  afterAll(async () => {
    for (const listener of listeners) listener.close();
    await serverA?.stop();
    await serverB?.stop();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("delivers a message sent through A to a member listening on B over SSE and over the websocket", async () => {
    const { sse, ws } = await listenOnB();
    const message = await send("Привет с сервера A");
    const expected = { channel, data: { type: "message.created", message } };
    expect(await sse.next(created(message.id), "the message over SSE on B")).toEqual(expected);
    expect(await ws.next(created(message.id), "the message over the websocket on B")).toEqual(expected);
    sse.close();
    ws.close();
  });

  it("keeps a message for a member who was offline: in the history and the unread record on B", async () => {
    const bobOnB = await signInOn(serverB, bob);
    const before = await json<UnreadRecordDto>(bobOnB, "/api/profile/conversations/messages/unread");
    const unreadBefore = before.personal.find((item) => item.conversationId === conversationId)?.unreadMessages ?? 0;
    const message = await send("Пока тебя не было: сделка завтра в 12:00");
    const history = await json<MessageHistoryDto>(bobOnB, `/api/profile/conversation/personal/${conversationId}/messages`);
    expect(history.messages.at(-1)).toEqual(message);
    const after = await json<UnreadRecordDto>(bobOnB, "/api/profile/conversations/messages/unread");
    expect(after.personal).toContainEqual({ conversationId, unreadMessages: unreadBefore + 1, processed: true });
  });

  it("carries a message above NOTIFY's 8000-byte payload limit through the realtime_frames table", async () => {
    const { sse, ws } = await listenOnB();
    const body = "Щ".repeat(4000);
    const message = await send(body);
    expect(message.body).toBe(body);
    expect((await sse.next(created(message.id), "the large message over SSE")).data).toEqual({ type: "message.created", message });
    expect((await ws.next(created(message.id), "the large message over the websocket")).data).toEqual({ type: "message.created", message });
    const database = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const stored = await database`select payload from realtime_frames order by id desc limit 1`;
      expect(JSON.stringify(stored[0]?.payload)).toContain(body);
    } finally {
      await database.end();
    }
  });

  it("closes the member's connections on B when their token is revoked from another process", async () => {
    const { sse, ws } = await listenOnB();
    let handle: DatabaseHandle | undefined;
    try {
      handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
      await realtimeHub(handle.db).revokeUser(bob.id);
      expect((await ws.waitClosed()).code).toBe(4401);
      await waitFor(() => sse.ended(), "the revoked event stream to end");
      expect(sse.frames.at(-1)).toMatchObject({ channel: "system", data: { type: "error", code: "invalid_token" } });
    } finally {
      await handle?.close();
    }
  });
});
