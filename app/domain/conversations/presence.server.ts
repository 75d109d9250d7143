/**
 * Online dots (docs/product/conversations.md#online): who among the people a member talks to is
 * connected to realtime now, and the `presence` frame that tells a member's personal-conversation
 * peers when that changes.
 */
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "~/db/client.server";
import { conversationMembers, conversations } from "~/db/schema";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { onlineAmong } from "~/lib/realtime/presence.server";

export { onlineAmong };

/** How many personal-conversation peers hear of a member's presence (the most recently active conversations). */
export const PRESENCE_PEERS_LIMIT = 200;

/** The frame on a peer's `notifications` channel when member `userId` comes online or goes offline. */
export interface PresenceFrameData {
  type: "presence";
  userId: number;
  online: boolean;
}

/** The other members of `userId`'s personal conversations, most recent activity first (at most `limit`). One query. */
export async function personalPeers(db: Db, userId: number, limit: number = PRESENCE_PEERS_LIMIT): Promise<number[]> {
  const other = alias(conversationMembers, "other_member");
  const rows = await db
    .select({ userId: other.userId })
    .from(conversationMembers)
    .innerJoin(conversations, and(eq(conversations.id, conversationMembers.conversationId), eq(conversations.kind, "personal")))
    .innerJoin(other, and(eq(other.conversationId, conversations.id), ne(other.userId, userId)))
    .where(eq(conversationMembers.userId, userId))
    .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id))
    .limit(limit);
  return rows.map((row) => row.userId);
}

/**
 * Tells `userId`'s personal-conversation peers whether `userId` is online now (in any process):
 * one `presence` frame to all of them, one message between processes. Two queries.
 */
export async function announcePresence(db: Db, userId: number): Promise<void> {
  const [online, peers] = await Promise.all([onlineAmong(db, [userId]), personalPeers(db, userId)]);
  const data: PresenceFrameData = { type: "presence", userId, online: online.has(userId) };
  await realtimeHub(db).publishToUsers(peers, data);
}
