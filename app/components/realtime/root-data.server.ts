/**
 * What the root loader hands the browser's realtime provider for a signed-in member: the
 * apiToken the websocket authenticates with, the configured transport and event-stream path,
 * and the unread figures (docs/product/notifications.md#unread-counting: notification count and unread-messages record) the
 * counters start from.
 */
import { getUnreadRecord } from "~/domain/conversations/messages.server";
import { countUnreadNotifications } from "~/domain/notifications/notifications.server";
import type { AppContext } from "~/lib/context";
import type { RealtimeRootData } from "./types";

export type { RealtimeRootData };

/** The member's realtime settings and unread figures; two queries. */
export async function loadRealtimeRootData(ctx: AppContext, user: { id: number; apiToken: string }): Promise<RealtimeRootData> {
  const [notifications, unread] = await Promise.all([countUnreadNotifications(ctx.db, user.id), getUnreadRecord(ctx.db, user.id)]);
  return { apiToken: user.apiToken, transport: ctx.config.realtimeTransport, ssePath: ctx.config.realtimeSsePath, notifications, unread };
}
