/**
 * Who may receive what in realtime (issue 4): a member's apiToken identifies them
 * (docs/product/realtime.md#access: members with a token receive realtime notifications); they may subscribe to their own
 * notifications, to conversations they belong to, and to the public conversation.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversationMembers, conversations, users } from "~/db/schema";
import { channelName, type ChannelRef } from "./frames";

/** The member owning `apiToken`, or null for a missing, malformed or rotated (revoked) token. */
export async function authenticateApiToken(db: Db, apiToken: unknown): Promise<{ id: number } | null> {
  if (typeof apiToken !== "string" || apiToken.length < 16 || apiToken.length > 200) return null;
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.apiToken, apiToken));
  return user ?? null;
}

/**
 * Whether member `userId` may subscribe to `ref`. Group channels also carry the public
 * conversation, which every member may read; someone else's conversation is refused exactly
 * like one that does not exist.
 */
export async function mayReceive(db: Db, userId: number, ref: ChannelRef): Promise<boolean> {
  if (ref.kind === "notifications") return true;
  return (await receivableChannels(db, userId, [ref])).has(channelName(ref));
}

/**
 * The names of the channels among `refs` that member `userId` may still receive, by the rule of
 * mayReceive, in one query whatever their number: the transports re-check their open
 * subscriptions with it, so a member removed without a removal message reaching this process
 * loses the conversation at the next check (ws.server.ts, sse.server.ts).
 */
export async function receivableChannels(db: Db, userId: number, refs: ChannelRef[]): Promise<Set<string>> {
  const allowed = new Set<string>();
  const ids = [...new Set(refs.flatMap((ref) => (ref.kind === "notifications" ? [] : [ref.conversationId])))];
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ id: conversations.id, kind: conversations.kind, memberId: conversationMembers.userId })
          .from(conversations)
          .leftJoin(conversationMembers, and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.userId, userId)))
          .where(inArray(conversations.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const ref of refs) {
    if (ref.kind === "notifications") {
      allowed.add(channelName(ref));
      continue;
    }
    const row = byId.get(ref.conversationId);
    if (!row) continue;
    const ok =
      ref.kind === "group" ? row.kind === "public" || (row.kind === "group" && row.memberId !== null) : row.kind === "personal" && row.memberId !== null;
    if (ok) allowed.add(channelName(ref));
  }
  return allowed;
}
