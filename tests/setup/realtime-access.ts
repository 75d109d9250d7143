/**
 * Helpers of the in-process transport suites (app/lib/realtime/{ws,sse}.server.test.ts): groups
 * written straight into the tables, members removed without any event, and the race where a
 * member is removed right after their access check. The suites wrap mayReceive with vi.mock
 * ("./access.server"), which removeRightAfterTheCheck relies on.
 */
import { and, eq } from "drizzle-orm";
import { vi } from "vitest";
import type { Db } from "~/db/client.server";
import { conversationMembers, conversations } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { mayReceive } from "~/lib/realtime/access.server";
import type { RealtimeFrame } from "~/lib/realtime/frames";

/** Matches a frame whose data has `type`. */
export const isData = (type: string) => (frame: RealtimeFrame) => (frame.data as { type?: string }).type === type;

/** A new group of `members` (the first one owns it); returns its id. */
export async function groupOf(db: Db, ...members: UserRow[]): Promise<number> {
  const [group] = await db.insert(conversations).values({ kind: "group", name: "Беседа", ownerId: members[0]!.id }).returning();
  await db.insert(conversationMembers).values(members.map((member) => ({ conversationId: group!.id, userId: member.id })));
  return group!.id;
}

/** Removes `userId` from the conversation straight in the table: no event, no `lose` message to any process. */
export async function dropMembership(db: Db, conversationId: number, userId: number): Promise<void> {
  await db.delete(conversationMembers).where(and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.userId, userId)));
}

/** The next access check passes, then the member is removed before they are subscribed (the race). */
export function removeRightAfterTheCheck(db: Db, conversationId: number, userId: number): void {
  const check = vi.mocked(mayReceive).getMockImplementation()!;
  vi.mocked(mayReceive).mockImplementationOnce(async (...args) => {
    const allowed = await check(...args);
    await dropMembership(db, conversationId, userId);
    return allowed;
  });
}
