import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversations, messages, users } from "~/db/schema";
import { getConversation, getPublicConversationId, listConversations } from "~/domain/conversations/conversations.server";
import { getUnreadRecord, listMessages } from "~/domain/conversations/messages.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { seedDemo, wipeCommunity } from "./seed.server";

let t: TestDatabase;
const dataDir = mkdtempSync(path.join(tmpdir(), "seed-chat-test-"));
beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemo(t.db, { dataDir });
}, 120_000);
afterAll(async () => {
  await t.destroy();
});

const page = { page: 1, perPage: 10 };

async function demoId(): Promise<number> {
  const [demo] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, "demo"));
  return demo!.id;
}

describe(`demo conversations on ${engine}`, () => {
  it("the demo member has groups, personal conversations with unread messages and a lively public chat", async () => {
    const id = await demoId();
    const groups = await listConversations(t.db, id, "group", page);
    expect(groups.items.map((c) => c.name).sort()).toEqual(["Крипта и DeFi", "Торговля аккаунтами"]);
    const trading = groups.items.find((c) => c.name === "Торговля аккаунтами")!;
    expect(trading).toMatchObject({ ownerId: id, memberCount: 5, unreadMessages: 3 });
    const personal = await listConversations(t.db, id, "personal", page);
    expect(personal.items.map((c) => c.name)).toEqual(["Marina_Trade", "Kotofey"]);
    const record = await getUnreadRecord(t.db, id);
    expect(record.group).toEqual([{ conversationId: trading.id, unreadMessages: 3, processed: true }]);
    expect(record.personal).toEqual([{ conversationId: personal.items[0]!.id, unreadMessages: 2, processed: true }]);

    const publicId = await getPublicConversationId(t.db);
    const history = await listMessages(t.db, id, "group", publicId);
    expect(history.messages.length).toBeGreaterThanOrEqual(10);
    expect(history.messages.find((m) => m.replyTo !== null)?.replyTo).toMatchObject({ author: "Marina_Trade", excerpt: expect.stringContaining("гаранта") });
    expect((await getConversation(t.db, id, "group", publicId)).name).toBe("Общий чат");
  });

  it("reseeding a wiped database brings the public conversation back", async () => {
    await wipeCommunity(t.db);
    await seedDemo(t.db, { dataDir });
    const id = await demoId();
    const publicRows = await t.db.select().from(conversations).where(eq(conversations.kind, "public"));
    expect(publicRows).toHaveLength(1);
    // The ten lines of conversations.ts and the spam message the moderation seed reports (moderation.ts).
    expect(await t.db.select().from(messages).where(eq(messages.conversationId, publicRows[0]!.id))).toHaveLength(11);
    expect((await listConversations(t.db, id, "group", page)).total).toBe(2);
  });
});
