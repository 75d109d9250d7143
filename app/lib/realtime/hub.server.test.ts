import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { conversationMembers, conversations } from "~/db/schema";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/factories";
import { waitFor } from "../../../tests/setup/wait";
import { authenticateApiToken, mayReceive } from "./access.server";
import type { RealtimeFrame } from "./frames";
import { realtimeHub, type RealtimeConnection } from "./hub.server";

function fakeConnection(userId: number) {
  const frames: RealtimeFrame[] = [];
  const lost: string[] = [];
  let revoked = false;
  const connection: RealtimeConnection = {
    userId,
    send: (frame) => void frames.push(frame),
    revoke: () => void (revoked = true),
    lose: (channel) => void lost.push(channel),
  };
  return { connection, frames, lost, revoked: () => revoked };
}

describe(`realtime hub (${engine})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("delivers a conversation frame to that channel's subscribers only", async () => {
    const hub = realtimeHub(database.db);
    const reader = fakeConnection(1);
    const other = fakeConnection(2);
    hub.subscribe(reader.connection, { kind: "group", conversationId: 7 });
    hub.subscribe(other.connection, { kind: "personal", conversationId: 7 });
    await hub.publishToChannel({ kind: "group", conversationId: 7 }, { text: "привет" });
    await waitFor(() => reader.frames.length === 1, "the group frame");
    expect(reader.frames).toEqual([{ channel: "conversation:group:7", data: { text: "привет" } }]);
    // The personal channel with the same id is another channel: a marker frame proves nothing leaked.
    await hub.publishToChannel({ kind: "personal", conversationId: 7 }, { marker: true });
    await waitFor(() => other.frames.length === 1, "the personal frame");
    expect(other.frames).toEqual([{ channel: "conversation:personal:7", data: { marker: true } }]);
  });

  it("sends a member's notifications to every connection of that member and to no one else", async () => {
    const hub = realtimeHub(database.db);
    const phone = fakeConnection(10);
    const laptop = fakeConnection(10);
    const stranger = fakeConnection(11);
    for (const { connection } of [phone, laptop, stranger]) hub.subscribe(connection, { kind: "notifications" });
    await hub.publishToUser(10, { type: "POST_LIKE" });
    await hub.publishToUser(11, { type: "marker" });
    await waitFor(() => stranger.frames.length === 1 && phone.frames.length === 1 && laptop.frames.length === 1, "notification frames");
    expect(phone.frames).toEqual([{ channel: "notifications", data: { type: "POST_LIKE" } }]);
    expect(laptop.frames).toEqual(phone.frames);
    expect(stranger.frames).toEqual([{ channel: "notifications", data: { type: "marker" } }]);
  });

  it("sends one frame to the notifications of several members at once, to all their connections and no one else", async () => {
    const hub = realtimeHub(database.db);
    const phone = fakeConnection(50);
    const laptop = fakeConnection(50);
    const friend = fakeConnection(51);
    const stranger = fakeConnection(52);
    const group = fakeConnection(50);
    for (const { connection } of [phone, laptop, friend, stranger]) hub.subscribe(connection, { kind: "notifications" });
    hub.subscribe(group.connection, { kind: "group", conversationId: 50 });
    const publish = vi.spyOn(database.pubsub, "publish");
    try {
      await hub.publishToUsers([50, 51, 53], { type: "CHAT_MESSAGE" });
      await hub.publishToUsers([], { type: "nobody" });
      // One message between processes (one NOTIFY on PostgreSQL), however many recipients.
      expect(publish).toHaveBeenCalledTimes(1);
    } finally {
      publish.mockRestore();
    }
    await hub.publishToUser(52, { type: "marker" });
    await waitFor(() => stranger.frames.length === 1, "the marker frame");
    await waitFor(() => phone.frames.length === 1 && laptop.frames.length === 1 && friend.frames.length === 1, "the shared frame");
    for (const reader of [phone, laptop, friend]) expect(reader.frames).toEqual([{ channel: "notifications", data: { type: "CHAT_MESSAGE" } }]);
    expect(stranger.frames).toEqual([{ channel: "notifications", data: { type: "marker" } }]);
    expect(group.frames).toEqual([]);
  });

  it("stops delivering after unsubscribe, and counts connections and subscriptions", async () => {
    const hub = realtimeHub(database.db);
    const before = hub.stats();
    const client = fakeConnection(20);
    const detach = hub.attach(client.connection);
    const unsubscribe = hub.subscribe(client.connection, { kind: "group", conversationId: 99 });
    expect(hub.subscribe(client.connection, { kind: "group", conversationId: 99 })).toBeTypeOf("function");
    expect(hub.stats()).toEqual({ connections: before.connections + 1, subscriptions: before.subscriptions + 1 });
    unsubscribe();
    detach();
    expect(hub.stats()).toEqual(before);
    const watcher = fakeConnection(21);
    hub.subscribe(watcher.connection, { kind: "group", conversationId: 99 });
    await hub.publishToChannel({ kind: "group", conversationId: 99 }, "после отписки");
    await waitFor(() => watcher.frames.length === 1, "the watcher's frame");
    expect(client.frames).toEqual([]);
  });

  it("revokes every connection of a member and drops a removed member from a channel", async () => {
    const hub = realtimeHub(database.db);
    const member = fakeConnection(30);
    const bystander = fakeConnection(31);
    hub.attach(member.connection);
    hub.attach(bystander.connection);
    hub.subscribe(member.connection, { kind: "group", conversationId: 5 });
    hub.subscribe(bystander.connection, { kind: "group", conversationId: 5 });
    await hub.removeFromChannel(30, { kind: "group", conversationId: 5 });
    await waitFor(() => member.lost.length === 1, "the lost channel");
    expect(member.lost).toEqual(["conversation:group:5"]);
    await hub.publishToChannel({ kind: "group", conversationId: 5 }, "после удаления");
    await waitFor(() => bystander.frames.length === 1, "the bystander's frame");
    expect(member.frames).toEqual([]);
    await hub.revokeUser(30);
    await waitFor(() => member.revoked(), "the revocation");
    expect(bystander.revoked()).toBe(false);
  });

  it("carries a frame larger than a NOTIFY payload whole", async () => {
    const hub = realtimeHub(database.db);
    const reader = fakeConnection(40);
    hub.subscribe(reader.connection, { kind: "group", conversationId: 40 });
    const body = "ж".repeat(4000) + "€".repeat(1000);
    await hub.publishToChannel({ kind: "group", conversationId: 40 }, { body });
    await waitFor(() => reader.frames.length === 1, "the large frame");
    expect(reader.frames[0]).toEqual({ channel: "conversation:group:40", data: { body } });
  });
});

describe(`realtime access (${engine})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it("knows a member by their apiToken and refuses missing, malformed or unknown tokens", async () => {
    const member = await makeMember(database.db);
    expect(await authenticateApiToken(database.db, member.apiToken)).toEqual({ id: member.id, username: member.username, session: expect.any(String) });
    for (const token of [undefined, 42, "", "short", "x".repeat(300), `${member.apiToken}x`, `${member.apiToken}\u0000`]) {
      expect(await authenticateApiToken(database.db, token)).toBeNull();
    }
  });

  it("lets members receive their own notifications, their conversations and the public one, nothing else", async () => {
    const { db } = database;
    const [owner, member, outsider] = [await makeMember(db), await makeMember(db), await makeMember(db)];
    const [group] = await db.insert(conversations).values({ kind: "group", name: "Трейдеры", ownerId: owner.id }).returning();
    const [pair] = await db
      .insert(conversations)
      .values({ kind: "personal", personalLowId: Math.min(owner.id, member.id), personalHighId: Math.max(owner.id, member.id) })
      .returning();
    await db.insert(conversationMembers).values([
      { conversationId: group!.id, userId: owner.id },
      { conversationId: group!.id, userId: member.id },
      { conversationId: pair!.id, userId: owner.id },
      { conversationId: pair!.id, userId: member.id },
    ]);
    const [publicRow] = await db.select().from(conversations).where(eq(conversations.kind, "public"));

    const table: Array<[string, number, Parameters<typeof mayReceive>[2], boolean]> = [
      ["own notifications", outsider.id, { kind: "notifications" }, true],
      ["a group they are in", member.id, { kind: "group", conversationId: group!.id }, true],
      ["a group they are not in", outsider.id, { kind: "group", conversationId: group!.id }, false],
      ["their personal conversation", member.id, { kind: "personal", conversationId: pair!.id }, true],
      ["someone else's personal conversation", outsider.id, { kind: "personal", conversationId: pair!.id }, false],
      ["a group addressed as personal", member.id, { kind: "personal", conversationId: group!.id }, false],
      ["a personal conversation addressed as a group", member.id, { kind: "group", conversationId: pair!.id }, false],
      ["the public conversation", outsider.id, { kind: "group", conversationId: publicRow!.id }, true],
      ["a conversation that does not exist", member.id, { kind: "group", conversationId: 999_999 }, false],
    ];
    for (const [name, userId, ref, allowed] of table) {
      expect(await mayReceive(db, userId, ref), name).toBe(allowed);
    }
  });
});
