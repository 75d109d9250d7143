/**
 * Online dots (docs/product/conversations.md#online): the realtime hub records connected members
 * in realtime_presence, and their personal-conversation peers get a `presence` frame when they
 * come online or go offline.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { realtimePresence } from "~/db/schema";
import { eventBus } from "~/lib/events.server";
import type { RealtimeFrame } from "~/lib/realtime/frames";
import { realtimeHub, type RealtimeConnection } from "~/lib/realtime/hub.server";
import { PRESENCE_TIMING } from "~/lib/realtime/presence.server";
import { setUpConversationDatabase, t } from "../../../tests/setup/conversations";
import { engine } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { waitFor } from "../../../tests/setup/wait";
import { getOrCreatePersonalConversation } from "./conversations.server";
import { sendMessage } from "./messages.server";
import { onlineAmong, personalPeers } from "./presence.server";

setUpConversationDatabase();

function connectionOf(userId: number) {
  const frames: RealtimeFrame[] = [];
  const connection: RealtimeConnection = { userId, send: (frame) => void frames.push(frame), revoke: () => {} };
  return { connection, frames };
}

describe(`presence on ${engine}`, () => {
  it("a member's connection makes them online for their peers, and its end (after the grace period) offline", { timeout: 30_000 }, async () => {
    const [me, friend, stranger] = await Promise.all([makeUser(t.db), makeUser(t.db), makeUser(t.db)]);
    const chat = await getOrCreatePersonalConversation(t.db, me.id, friend.id);
    await sendMessage(t.db, me.id, "personal", chat.id, { body: "Привет" });
    expect(await personalPeers(t.db, me.id)).toEqual([friend.id]);
    expect(await personalPeers(t.db, stranger.id)).toEqual([]);

    const hub = realtimeHub(t.db);
    const friendSide = connectionOf(friend.id);
    const strangerSide = connectionOf(stranger.id);
    const detachFriend = hub.attach(friendSide.connection);
    const detachStranger = hub.attach(strangerSide.connection);
    hub.subscribe(friendSide.connection, { kind: "notifications" });
    hub.subscribe(strangerSide.connection, { kind: "notifications" });
    await hub.presenceSettled();
    await eventBus(t.db).drain();

    const mine = connectionOf(me.id);
    const detachMine = hub.attach(mine.connection);
    // A second connection (another tab) changes nothing.
    const detachTab = hub.attach(connectionOf(me.id).connection);
    await hub.presenceSettled();
    await eventBus(t.db).drain();
    await waitFor(() => friendSide.frames.length === 1, "the online frame", 5_000);
    expect(friendSide.frames).toEqual([{ channel: "notifications", data: { type: "presence", userId: me.id, online: true } }]);
    expect(await onlineAmong(t.db, [me.id, friend.id, stranger.id])).toEqual(new Set([me.id, friend.id, stranger.id]));

    // Closing one tab keeps the member online; closing the last one takes them offline after the grace period.
    detachTab();
    detachMine();
    expect(await onlineAmong(t.db, [me.id])).toEqual(new Set([me.id]));
    await waitFor(() => friendSide.frames.length === 2, "the offline frame", PRESENCE_TIMING.offlineGraceMs + 5_000);
    expect(friendSide.frames[1]).toEqual({ channel: "notifications", data: { type: "presence", userId: me.id, online: false } });
    expect(await onlineAmong(t.db, [me.id])).toEqual(new Set());
    // The stranger shares no conversation with me: nothing about me reached them.
    expect(strangerSide.frames.filter((f) => (f.data as { userId?: number }).userId === me.id)).toEqual([]);

    // A row its process stopped refreshing (the process died) no longer counts.
    await t.db.update(realtimePresence).set({ seenAt: sql`now() - interval '100 seconds'` });
    expect(await onlineAmong(t.db, [friend.id, stranger.id])).toEqual(new Set());

    detachFriend();
    detachStranger();
    // A clean shutdown removes this process's rows at once.
    await hub.close();
    expect(await t.db.$count(realtimePresence)).toBe(0);
  });
});
