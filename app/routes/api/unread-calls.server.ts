/**
 * The data of the two unread counters members poll, shared by their routes' loaders and by
 * server/member-calls.ts, which answers a cookie-signed GET of either before the router
 * (docs/decisions/0035-polled-calls-before-the-router.md).
 */
import type { Db } from "~/db/client.server";
import { getUnreadRecord } from "~/domain/conversations/messages.server";
import type { UnreadRecordDto } from "~/domain/conversations/types";
import { countUnreadNotifications } from "~/domain/notifications/notifications.server";

/**
 * GET /api/profile/notifications/unread's data for member `userId`: `{count}`, how many of their
 * notifications are unread (docs/product/notifications.md#unread-counting).
 */
export async function unreadNotificationsData(db: Db, userId: number): Promise<{ count: number }> {
  return { count: await countUnreadNotifications(db, userId) };
}

/**
 * GET /api/profile/conversations/messages/unread's data for member `userId`: their conversations
 * with unread messages and the exact counts (docs/product/conversations.md#unread-counts).
 */
export function unreadMessagesData(db: Db, userId: number): Promise<UnreadRecordDto> {
  return getUnreadRecord(db, userId);
}
