/**
 * The server-sent events transport in one process on the test database: what the HTTP suite
 * cannot reach from outside — token rotation while connected, removal from a conversation, the
 * heartbeat and the shutdown close (issue 4 "Realtime transports").
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { conversationMembers, conversations, sessions } from "~/db/schema";
import { endOtherSessions } from "~/domain/users/sessions.server";
import { openSession } from "~/lib/session.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/factories";

type Member = Awaited<ReturnType<typeof makeMember>>;
import { AppError } from "../errors";
import { REALTIME_TIMING, type RealtimeFrame } from "./frames";
import { realtimeHub } from "./hub.server";
import { closeEventStreams, openEventStream, openEventStreamCount } from "./sse.server";
import { dropMembership, groupOf, isData, removeRightAfterTheCheck } from "../../../tests/setup/realtime-access";
import { waitFor } from "../../../tests/setup/wait";
import type * as access from "./access.server";

// mayReceive is wrapped so a test can remove a member right after their access was checked.
vi.mock("./access.server", async (importOriginal) => {
  const actual = await importOriginal<typeof access>();
  return { ...actual, mayReceive: vi.fn(actual.mayReceive) };
});

describe(`server-sent events transport (${engine})`, () => {
  let database: TestDatabase;
  let alice: Member;
  let bob: Member;
  let outsider: Member;
  let groupId: number;

  /** Reads the stream of `response` into frames until it ends. */
  function read(response: Response) {
    const frames: RealtimeFrame[] = [];
    const events: string[] = [];
    let ended = false;
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      const reader = response.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        buffer += decoder.decode(chunk.value, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
          events.push(event);
          if (event === "message") frames.push(JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as RealtimeFrame);
        }
      }
      ended = true;
    })();
    return { frames, events, ended: () => ended };
  }

  const open = (query: Record<string, string | number>, signal = new AbortController().signal) =>
    openEventStream(database.db, new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])), signal);

  const refusal = async (query: Record<string, string | number>) => {
    const error = await open(query).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, code: (error as AppError).code };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    [alice, bob, outsider] = [await makeMember(db), await makeMember(db), await makeMember(db)];
    const [group] = await db.insert(conversations).values({ kind: "group", name: "Обмен", ownerId: alice.id }).returning();
    groupId = group!.id;
    await db.insert(conversationMembers).values([
      { conversationId: groupId, userId: alice.id },
      { conversationId: groupId, userId: bob.id },
    ]);
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("refuses a bad query with 400, a bad token with 401 and someone else's conversation with 404", async () => {
    expect(await refusal({ type: "group", "api-token": alice.apiToken })).toEqual({ status: 400, code: "bad_query" });
    expect(await refusal({ type: "channel", id: groupId, "api-token": alice.apiToken })).toEqual({ status: 400, code: "bad_query" });
    expect(await refusal({ type: "group", id: groupId })).toEqual({ status: 401, code: "invalid_token" });
    expect(await refusal({ type: "group", id: groupId, "api-token": "y".repeat(43) })).toEqual({ status: 401, code: "invalid_token" });
    expect(await refusal({ type: "group", id: groupId, "api-token": outsider.apiToken })).toEqual({ status: 404, code: "conversation_not_found" });
    expect(await refusal({ type: "personal", id: groupId, "api-token": alice.apiToken })).toEqual({ status: 404, code: "conversation_not_found" });
  });

  it("answers an uncached, unbuffered stream that starts with subscribed and carries the channel's frames", async () => {
    const controller = new AbortController();
    const response = await open({ type: "group", id: groupId, "api-token": bob.apiToken }, controller.signal);
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
    expect(response.headers.get("X-Accel-Buffering")).toBe("no");
    const stream = read(response);
    await realtimeHub(database.db).publishToChannel({ kind: "group", conversationId: groupId }, { type: "message.created" });
    await waitFor(() => stream.frames.length === 2, "two frames");
    expect(stream.frames).toEqual([
      { channel: "system", data: { type: "subscribed", channel: `conversation:group:${groupId}` } },
      { channel: `conversation:group:${groupId}`, data: { type: "message.created" } },
    ]);
    const before = realtimeHub(database.db).stats();
    controller.abort();
    await waitFor(() => stream.ended(), "the end of the stream");
    expect(realtimeHub(database.db).stats()).toEqual({ connections: before.connections - 1, subscriptions: before.subscriptions - 1 });
  });

  it("sends a ping event every heartbeat interval", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const controller = new AbortController();
      const stream = read(await open({ type: "notifications", "api-token": alice.apiToken }, controller.signal));
      await vi.advanceTimersByTimeAsync(15_000);
      await waitFor(() => stream.events.includes("ping"), "the heartbeat");
      controller.abort();
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends the stream after an invalid_token frame when the token is rotated, and after unsubscribed when removed", async () => {
    const revoked = read(await open({ type: "notifications", "api-token": bob.apiToken }));
    const removed = read(await open({ type: "group", id: groupId, "api-token": alice.apiToken }));
    await realtimeHub(database.db).revokeUser(bob.id);
    await waitFor(() => revoked.ended(), "the revoked stream to end");
    expect(revoked.frames.at(-1)).toMatchObject({ channel: "system", data: { type: "error", code: "invalid_token" } });
    await realtimeHub(database.db).removeFromChannel(alice.id, { kind: "group", conversationId: groupId });
    await waitFor(() => removed.ended(), "the stream of the removed member to end");
    expect(removed.frames.at(-1)).toEqual({ channel: "system", data: { type: "unsubscribed", channel: `conversation:group:${groupId}` } });
  });

  it("ends the streams of an ended session after invalid_token (issue 13 item 1), keeping the member's other devices", async () => {
    const member = await makeMember(database.db);
    const laptop = await openSession(database.db, member.id, {});
    const phoneStream = read(await open({ type: "notifications", "api-token": member.apiToken }));
    const laptopStream = read(await open({ type: "notifications", "api-token": laptop.apiToken }));
    await endOtherSessions(database.db, member.id, laptop.sessionId);
    await waitFor(() => phoneStream.ended(), "the ended session's stream to end");
    expect(phoneStream.frames.at(-1)).toMatchObject({ channel: "system", data: { type: "error", code: "invalid_token" } });
    expect(laptopStream.ended()).toBe(false);
    expect(await refusal({ type: "notifications", "api-token": member.apiToken })).toEqual({ status: 401, code: "invalid_token" });
  });

  it("ends a stream at its heartbeat when its session row was deleted without a revocation", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const member = await makeMember(database.db);
      const stream = read(await open({ type: "notifications", "api-token": member.apiToken }));
      await database.db.delete(sessions).where(eq(sessions.userId, member.id));
      await vi.advanceTimersByTimeAsync(15_000);
      await waitFor(() => stream.ended(), "the stream to end at the heartbeat");
      expect(stream.frames.at(-1)).toMatchObject({ data: { type: "error", code: "invalid_token" } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a stream beyond the per-member or per-address cap with 429 too_many_connections, and frees the slot when one ends (issue 13 item 5)", async () => {
    const member = await makeMember(database.db);
    const caps = { perAddress: 3, perMember: 2 };
    const openAs = (address: string, controller = new AbortController()) =>
      openEventStream(database.db, new URLSearchParams({ type: "notifications", "api-token": member.apiToken }), controller.signal, {
        clientAddress: address,
        caps,
      });
    const first = new AbortController();
    read(await openAs("192.0.2.1", first));
    read(await openAs("192.0.2.2"));
    await expect(openAs("192.0.2.3")).rejects.toMatchObject({ status: 429, code: "too_many_connections" });
    first.abort();
    await waitFor(
      async () =>
        openAs("192.0.2.3").then(
          (response) => read(response),
          () => undefined,
        ),
      "a member slot to free",
    );
    const other = await makeMember(database.db);
    const openOther = () =>
      openEventStream(database.db, new URLSearchParams({ type: "notifications", "api-token": other.apiToken }), new AbortController().signal, {
        clientAddress: "192.0.2.9",
        caps: { perAddress: 1, perMember: 5 },
      });
    read(await openOther());
    await expect(openOther()).rejects.toMatchObject({ status: 429, code: "too_many_connections" });
  });

  it("refuses the stream (404) when the member is removed between the access check and the subscription", async () => {
    const lateGroup = await groupOf(database.db, alice, bob);
    const before = realtimeHub(database.db).stats();
    removeRightAfterTheCheck(database.db, lateGroup, bob.id);
    expect(await refusal({ type: "group", id: lateGroup, "api-token": bob.apiToken })).toEqual({ status: 404, code: "conversation_not_found" });
    expect(realtimeHub(database.db).stats()).toEqual(before);
  });

  it("ends the stream of a member who lost the conversation without a removal message at the next heartbeat", async () => {
    const quietGroup = await groupOf(database.db, alice, bob);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const stream = read(await open({ type: "group", id: quietGroup, "api-token": bob.apiToken }));
      const kept = read(await open({ type: "group", id: quietGroup, "api-token": alice.apiToken }));
      await dropMembership(database.db, quietGroup, bob.id);
      await vi.advanceTimersByTimeAsync(REALTIME_TIMING.sseHeartbeatMs);
      await waitFor(() => stream.ended(), "the stream of the member who lost the conversation to end");
      expect(stream.frames.at(-1)).toEqual({ channel: "system", data: { type: "unsubscribed", channel: `conversation:group:${quietGroup}` } });
      await realtimeHub(database.db).publishToChannel({ kind: "group", conversationId: quietGroup }, { type: "message.created" });
      await waitFor(() => kept.frames.some(isData("message.created")), "the remaining member's frame");
      expect(kept.ended()).toBe(false);
    } finally {
      vi.useRealTimers();
      closeEventStreams();
    }
  });

  it("ends every open stream on shutdown", async () => {
    const streams = [
      read(await open({ type: "notifications", "api-token": alice.apiToken })),
      read(await open({ type: "group", id: groupId, "api-token": bob.apiToken })),
    ];
    expect(openEventStreamCount()).toBe(2);
    expect(closeEventStreams()).toBe(2);
    await waitFor(() => streams.every((stream) => stream.ended()), "both streams to end");
    expect(openEventStreamCount()).toBe(0);
  });
});
