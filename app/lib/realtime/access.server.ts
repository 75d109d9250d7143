/**
 * Who may receive what in realtime (issue 4): a member's apiToken identifies them
 * (docs/product/realtime.md#access: members with a token receive realtime notifications); they may subscribe to their own
 * notifications, to conversations they belong to, and to the public conversation.
 */
import { and, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversationMembers, conversations, sessions, users } from "~/db/schema";
import { sessionHandle } from "~/domain/users/sessions.server";
import { channelName, type ChannelRef } from "./frames";

/** What a token looks like: base64url or hex, 16 to 200 characters; anything else is refused unread. */
const API_TOKEN_FORMAT = /^[A-Za-z0-9_-]{16,200}$/;

/**
 * The member (id and username) and session owning `apiToken` (each session has its own, issue
 * 13 item 1), or null for a missing or malformed token, or one whose session ended, expired or
 * was given a new token. `session` is the session's handle, which the hub closes its
 * connections by; the username names the member in typing frames
 * (docs/product/conversations.md#typing).
 */
export async function authenticateApiToken(db: Db, apiToken: unknown): Promise<{ id: number; username: string; session: string } | null> {
  if (typeof apiToken !== "string" || !API_TOKEN_FORMAT.test(apiToken)) return null;
  const [row] = await db
    .select({ id: sessions.userId, username: users.username, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.apiToken, apiToken), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row ? { id: row.id, username: row.username, session: sessionHandle(row.sessionId) } : null;
}

/**
 * Whether `apiToken` still authenticates (its session exists and has not expired): the
 * transports ask at every heartbeat, so a connection whose session was deleted without a
 * revocation reaching this process, or that expired, closes within that interval.
 */
export async function isApiTokenCurrent(db: Db, apiToken: string): Promise<boolean> {
  return (await authenticateApiToken(db, apiToken)) !== null;
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
