/**
 * The conversation suites' database (app/domain/conversations/messages*.test.ts): made by
 * `setUpConversationDatabase()` with the conversations' realtime rules and the hub listening (live
 * binding: `t` is set once it has run); the message rate limit is cleared before each test, since
 * most send more than 20 messages in a file (the limit has its own test).
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { rateLimits } from "~/db/schema";
import { registerConversationRealtime } from "~/domain/conversations/realtime.server";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { createTestDatabase, type TestDatabase } from "./database";

export let t: TestDatabase;

export function setUpConversationDatabase(): void {
  beforeAll(async () => {
    t = await createTestDatabase();
    registerConversationRealtime(t.db);
    // The hub listens on the database's pub/sub (LISTEN on PostgreSQL) from its first use.
    realtimeHub(t.db);
    await t.pubsub.ready();
  });
  afterAll(async () => {
    await t.destroy();
  });
  beforeEach(async () => {
    await t.db.delete(rateLimits);
  });
}
