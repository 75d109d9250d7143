/**
 * Everything that reacts to domain events, registered once per database at start-up
 * (app/db/database.server.ts). Each area adds its own registration here.
 */
import type { Db } from "~/db/client.server";
import { registerAchievementRules } from "./achievements/achievements.server";
import { registerConversationRealtime } from "./conversations/realtime.server";
import { registerNotificationRules } from "./notifications/subscribers.server";

export function registerSubscribers(db: Db): void {
  registerAchievementRules(db);
  registerConversationRealtime(db);
  registerNotificationRules(db);
}
