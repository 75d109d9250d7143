import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages } from "~/db/schema";
import { createGroupConversation, inviteToGroup } from "~/domain/conversations/conversations.server";
import * as messagesModule from "~/domain/conversations/messages.server";
import { getUnreadRecord, listMessages } from "~/domain/conversations/messages.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { loadConversationsPage } from "./data.server";

// listMessages is wrapped so a test can commit a message while the page is being loaded.
vi.mock("~/domain/conversations/messages.server", async (importOriginal) => {
  const actual = await importOriginal<typeof messagesModule>();
  return { ...actual, listMessages: vi.fn(actual.listMessages) };
});

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function groupWithHistory(count: number) {
  const [viewer, peer] = await Promise.all([makeUser(t.db), makeUser(t.db)]);
  const group = await createGroupConversation(t.db, viewer.id, { name: "Обмен скинами" });
  await inviteToGroup(t.db, viewer.id, group.id, peer.username);
  const rows = await t.db
    .insert(messages)
    .values(Array.from({ length: count }, (_, i) => ({ conversationId: group.id, authorId: peer.id, body: `Сообщение ${i + 1}` })))
    .returning({ id: messages.id });
  return { viewer, peer, group, ids: rows.map((row) => row.id) };
}

const unreadIn = async (userId: number, conversationId: number) =>
  (await getUnreadRecord(t.db, userId)).group.find((item) => item.conversationId === conversationId)?.unreadMessages ?? 0;

describe(`opening a conversation on the page on ${engine}`, () => {
  it("marks read the messages shown", async () => {
    const { viewer, group } = await groupWithHistory(3);
    expect(await unreadIn(viewer.id, group.id)).toBe(3);
    const page = await loadConversationsPage(t.db, viewer.id, new URLSearchParams({ group: String(group.id) }));
    expect(page.open?.history.messages).toHaveLength(3);
    expect(await unreadIn(viewer.id, group.id)).toBe(0);
  });

  it("leaves unread a message committed after the history was loaded", async () => {
    const { viewer, peer, group } = await groupWithHistory(2);
    const loadHistory = vi.mocked(listMessages).getMockImplementation()!;
    vi.mocked(listMessages).mockImplementationOnce(async (...args) => {
      const history = await loadHistory(...args);
      await t.db.insert(messages).values({ conversationId: group.id, authorId: peer.id, body: "Пришло, пока страница грузилась" });
      return history;
    });
    const page = await loadConversationsPage(t.db, viewer.id, new URLSearchParams({ group: String(group.id) }));
    expect(page.open?.history.messages.map((m) => m.body)).toEqual(["Сообщение 1", "Сообщение 2"]);
    expect(await unreadIn(viewer.id, group.id)).toBe(1);
  });

  it("an older page (before) marks nothing read", async () => {
    const { viewer, group, ids } = await groupWithHistory(40);
    const page = await loadConversationsPage(t.db, viewer.id, new URLSearchParams({ group: String(group.id), before: String(ids[35]) }));
    expect(page.open).toMatchObject({ olderPage: true });
    expect(page.open?.history.messages.at(-1)?.id).toBe(ids[34]);
    expect(await unreadIn(viewer.id, group.id)).toBe(40);
  });
});
