/**
 * Conversation frames (issue 4; docs/product/realtime.md#channels): message events become ConversationFrameData frames
 * on `conversation:{group|personal}:{id}` (the public conversation travels as "group"), sent
 * through the realtime hub to every subscriber in every server process. A member removed from a
 * group loses its channel at once, wherever they are connected.
 */
import type { Db } from "~/db/client.server";
import { eventBus } from "~/lib/events.server";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { channelKindOf } from "./access.server";
import { announcePresence } from "./presence.server";
import type { ConversationFrameData } from "./types";

/** Subscribes the conversation channels of database `db` to the event bus; call once per database. */
export function registerConversationRealtime(db: Db): void {
  const bus = eventBus(db);
  const publish = (conversation: { id: number; kind: "group" | "personal" | "public" }, data: ConversationFrameData) =>
    realtimeHub(db).publishToChannel({ kind: channelKindOf(conversation.kind), conversationId: conversation.id }, data);

  bus.subscribe("message.created", (event) => publish(event.conversation, { type: "message.created", message: event.message }));
  bus.subscribe("message.updated", (event) => publish(event.conversation, { type: "message.updated", message: event.message }));
  bus.subscribe("message.deleted", (event) =>
    publish(event.conversation, { type: "message.deleted", messageId: event.messageId, conversationId: event.conversation.id }),
  );
  // docs/product/conversations.md#read-receipts: only personal conversations show receipts.
  bus.subscribe("conversation.read", (event) =>
    event.conversation.kind === "personal" ? publish(event.conversation, { type: "read", userId: event.userId, upTo: event.upTo }) : undefined,
  );
  // docs/product/conversations.md#online: a member's peers see their dot change.
  bus.subscribe("presence.changed", (event) => announcePresence(db, event.userId));
  bus.subscribe("conversation.member_removed", (event) =>
    realtimeHub(db).removeFromChannel(event.userId, { kind: "group", conversationId: event.conversationId }),
  );
}
