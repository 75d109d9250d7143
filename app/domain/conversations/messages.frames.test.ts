import { describe, expect, it } from "vitest";
import { eventBus } from "~/lib/events.server";
import type { RealtimeFrame } from "~/lib/realtime/frames";
import { realtimeHub, type RealtimeConnection } from "~/lib/realtime/hub.server";
import { eventsDuring, groupWith } from "../../../tests/setup/domain";
import { waitFor } from "../../../tests/setup/wait";
import { engine } from "../../../tests/setup/database";
import { setUpConversationDatabase, t } from "../../../tests/setup/conversations";
import { makeUser } from "../../../tests/setup/factories";
import { getConversation, getOrCreatePersonalConversation, getPublicConversationId, removeFromGroup } from "./conversations.server";
import { deleteMessage, editMessage, markConversationRead, sendMessage } from "./messages.server";
import type { ConversationFrameData } from "./types";

setUpConversationDatabase();

/** A fake connection of `userId` recording its frames and the channels it lost. */
function fakeConnection(userId: number) {
  const frames: RealtimeFrame<ConversationFrameData>[] = [];
  const lost: string[] = [];
  const connection: RealtimeConnection = {
    userId,
    send: (frame) => void frames.push(frame as RealtimeFrame<ConversationFrameData>),
    revoke: () => {},
    lose: (channel) => void lost.push(channel),
  };
  return { connection, frames, lost };
}

describe(`conversation frames on ${engine}`, () => {
  it("members subscribed to the channel get created, updated and deleted frames; a removed member loses the channel", async () => {
    const [owner, member] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const group = await groupWith(t.db, owner, [member], "Сделки недели");
    const hub = realtimeHub(t.db);
    const listener = fakeConnection(member.id);
    const detach = hub.attach(listener.connection);
    hub.subscribe(listener.connection, { kind: "group", conversationId: group.id });
    try {
      const message = await sendMessage(t.db, owner.id, "group", group.id, { body: "Живой эфир" });
      await eventBus(t.db).drain();
      await waitFor(() => listener.frames.length === 1, "the message.created frame", 5_000);
      expect(listener.frames[0]).toEqual({ channel: `conversation:group:${group.id}`, data: { type: "message.created", message } });

      const edited = await editMessage(t.db, owner.id, message.id, "Живой эфир (правка)");
      await deleteMessage(t.db, owner.id, message.id);
      await eventBus(t.db).drain();
      await waitFor(() => listener.frames.length === 3, "the updated and deleted frames", 5_000);
      expect(listener.frames.slice(1).map((f) => f.data)).toEqual([
        { type: "message.updated", message: edited },
        { type: "message.deleted", messageId: message.id, conversationId: group.id },
      ]);

      await removeFromGroup(t.db, owner.id, group.id, member.id);
      await eventBus(t.db).drain();
      await waitFor(() => listener.lost.length === 1, "the removal", 5_000);
      expect(listener.lost).toEqual([`conversation:group:${group.id}`]);
      await sendMessage(t.db, owner.id, "group", group.id, { body: "Уже без тебя" });
      await eventBus(t.db).drain();
      // A frame that would arrive comes through the same pub/sub as this marker frame, so once it is here nothing else is due.
      const marker = fakeConnection(owner.id);
      hub.subscribe(marker.connection, { kind: "group", conversationId: group.id });
      await sendMessage(t.db, owner.id, "group", group.id, { body: "Метка" });
      await eventBus(t.db).drain();
      // Wait for the marker itself: under load the previous message's frame may reach the marker connection too.
      await waitFor(() => marker.frames.some((frame) => frame.data.type === "message.created" && frame.data.message.body === "Метка"), "the marker frame");
      expect(listener.frames).toHaveLength(3);
    } finally {
      detach();
    }
  });

  it("the public conversation travels on a group channel", async () => {
    const [author, reader] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const publicId = await getPublicConversationId(t.db);
    const listener = fakeConnection(reader.id);
    const off = realtimeHub(t.db).subscribe(listener.connection, { kind: "group", conversationId: publicId });
    try {
      await sendMessage(t.db, author.id, "group", publicId, { body: "Всем привет из общего чата" });
      await eventBus(t.db).drain();
      await waitFor(() => listener.frames.length === 1, "the public frame", 5_000);
      expect(listener.frames[0]).toMatchObject({ channel: `conversation:group:${publicId}`, data: { type: "message.created" } });
    } finally {
      off();
    }
  });

  it("read receipts: a personal conversation's marker moving forward is a `read` frame and the peer's marker in the conversation (docs/product/conversations.md#read-receipts)", async () => {
    const [me, friend] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
    const chat = await getOrCreatePersonalConversation(t.db, me.id, friend.id);
    const first = await sendMessage(t.db, me.id, "personal", chat.id, { body: "Первое" });
    const second = await sendMessage(t.db, me.id, "personal", chat.id, { body: "Второе" });
    expect((await getConversation(t.db, me.id, "personal", chat.id)).peerReadUpTo).toBe(0);
    await eventBus(t.db).drain();
    const listener = fakeConnection(me.id);
    const off = realtimeHub(t.db).subscribe(listener.connection, { kind: "personal", conversationId: chat.id });
    try {
      expect(await markConversationRead(t.db, friend.id, chat.id, first.id)).toBe(first.id);
      // Not moving (the same mark again, or backwards) publishes nothing.
      expect(await markConversationRead(t.db, friend.id, chat.id, first.id)).toBeNull();
      expect(await markConversationRead(t.db, friend.id, chat.id, 1)).toBeNull();
      expect(await markConversationRead(t.db, friend.id, chat.id)).toBe(second.id);
      await eventBus(t.db).drain();
      // The two messages' created frames went out before the subscription but come back through
      // LISTEN in their own time: under load they reach this listener too, so only read frames count.
      const reads = () => listener.frames.map((f) => f.data).filter((data) => data.type === "read");
      await waitFor(() => reads().length >= 2, "two read frames", 5_000);
      expect(reads()).toEqual([
        { type: "read", userId: friend.id, upTo: first.id },
        { type: "read", userId: friend.id, upTo: second.id },
      ]);
      expect((await getConversation(t.db, me.id, "personal", chat.id)).peerReadUpTo).toBe(second.id);
      expect((await getConversation(t.db, friend.id, "personal", chat.id)).peerReadUpTo).toBe(second.id);
      // Groups show no receipts.
      const group = await groupWith(t.db, me, [friend], "Без отметок");
      await sendMessage(t.db, me.id, "group", group.id, { body: "В группе" });
      expect((await getConversation(t.db, me.id, "group", group.id)).peerReadUpTo).toBeNull();
      const groupEvents = await eventsDuring(t.db, "conversation.read", () => markConversationRead(t.db, friend.id, group.id));
      expect(groupEvents).toHaveLength(1);
      expect(groupEvents[0]).toMatchObject({ conversation: { kind: "group" } });
    } finally {
      off();
    }
  });
});
