/**
 * Live chat after a moderation change (docs/product/moderation.md#content-actions): a message
 * deleted, restored or hidden by moderation is sent again to its conversation's channel as a
 * `message.updated` frame carrying what every reader may see (no viewer: a hidden or deleted
 * body is blank), so open chats change at once.
 */
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversations, messages } from "~/db/schema";
import { toMessageDtos } from "../conversations/mapper.server";
import { eventBus } from "~/lib/events.server";

/** Publishes message `messageId` as it now is to its conversation (after the change committed). */
export async function publishMessageChange(db: Db, messageId: number): Promise<void> {
  const [row] = await db
    .select({ message: messages, kind: conversations.kind })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.id, messageId));
  if (!row) return;
  const [dto] = await toMessageDtos(db, [row.message]);
  eventBus(db).publish({ type: "message.updated", message: dto!, conversation: { id: row.message.conversationId, kind: row.kind } });
}
