import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantMessages } from "~/db/schema";
import type { AssistantConfig } from "~/lib/config.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { fakeAnswerFor, FAKE_ANSWER_TAIL, startFakeAssistant, type FakeAssistant } from "../../../tests/setup/fake-assistant";
import { makeUser } from "../../../tests/setup/factories";
import type { UserRow } from "../users/users.server";
import { deleteConversation, getConversation, listConversations, renameConversation } from "./conversations.server";
import { getUsage, moscowDay } from "./quota.server";
import { askAssistant, runTurn, startTurn } from "./turn.server";

let t: TestDatabase;
let fake: FakeAssistant;
let member: UserRow;
let other: UserRow;
let config: AssistantConfig;
/** The upstream wait of the cases about the upstream keeping silent (ms). */
const QUICK_TIMEOUT = { timeoutMs: 700 };

beforeAll(async () => {
  [t, fake] = await Promise.all([createTestDatabase(), startFakeAssistant()]);
  member = await makeUser(t.db);
  other = await makeUser(t.db);
  config = {
    enabled: true,
    baseUrl: fake.baseUrl,
    apiKey: "sk-fake",
    model: "fake-model",
    dailyQuota: 50,
    // Long enough for a loaded machine; the timeout cases set their own short one (QUICK_TIMEOUT).
    timeoutMs: 10_000,
    maxPromptChars: 200,
    systemPrompt: "Ты помощник.",
  };
});
afterAll(async () => {
  await fake?.close();
  await t?.destroy();
});

describe(`the assistant (${engine})`, () => {
  it("streams an answer piece by piece, saves it, and sends the system prompt, history, model and key upstream", async () => {
    const turn = await startTurn(t.db, config, member.id, { content: "Как проверить продавца?" });
    const pieces: string[] = [];
    const answer = await runTurn(t.db, config, turn, { onText: (text) => pieces.push(text) });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe(fakeAnswerFor("Как проверить продавца?"));
    expect(answer).toMatchObject({ role: "assistant", status: "complete", content: pieces.join(""), errorCode: null });
    expect(answer.html).toContain(FAKE_ANSWER_TAIL);

    const second = await askAssistant(t.db, config, member.id, { conversationId: turn.conversationId, content: "А ещё?" });
    expect(second.answer.status).toBe("complete");
    const sent = fake.requests.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-fake");
    expect(sent.body).toMatchObject({ model: "fake-model", stream: true });
    expect(sent.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(sent.body.messages[0]!.content).toBe("Ты помощник.");

    const conversation = await getConversation(t.db, member.id, turn.conversationId);
    expect(conversation.title).toBe("Как проверить продавца?");
    expect(conversation.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect((await getUsage(t.db, member.id, 50)).used).toBe(2);
  });

  it.each([
    ["[ошибка 500]", "upstream_error"],
    ["[ошибка 401]", "upstream_auth"],
    ["[ошибка 429]", "upstream_busy"],
    ["[молчание]", "upstream_timeout"],
    ["[пусто]", "upstream_empty"],
    ["[поломка]", "upstream_error"],
  ])("%s: the answer fails with %s, a Russian explanation, and the request is not counted", async (prompt, code) => {
    const before = (await getUsage(t.db, member.id, 50)).used;
    const { answer } = await askAssistant(t.db, code === "upstream_timeout" ? { ...config, ...QUICK_TIMEOUT } : config, member.id, { content: prompt });
    expect(answer).toMatchObject({ status: "failed", errorCode: code, content: "" });
    expect(answer.errorMessage).toMatch(/[А-Яа-я]/);
    expect((await getUsage(t.db, member.id, 50)).used).toBe(before);
  });

  it("a stream that stalls keeps the text that arrived and explains it", async () => {
    const { answer } = await askAssistant(t.db, { ...config, ...QUICK_TIMEOUT }, member.id, { content: "[обрыв]" });
    expect(answer).toMatchObject({ status: "failed", errorCode: "upstream_stalled", content: "Начинаю отвечать" });
    expect(answer.errorMessage).toMatch(/оборвался/);
  });

  it("an unreachable endpoint is explained", async () => {
    const { answer } = await askAssistant(t.db, { ...config, baseUrl: "http://127.0.0.1:9/v1" }, member.id, { content: "Привет" });
    expect(answer).toMatchObject({ status: "failed", errorCode: "upstream_unreachable" });
  });

  it("stopping the answer saves what arrived as «cancelled»", async () => {
    const controller = new AbortController();
    const turn = await startTurn(t.db, config, member.id, { content: "[медленно] Расскажи" });
    const answer = await runTurn(t.db, config, turn, { signal: controller.signal, onText: () => controller.abort() });
    expect(answer).toMatchObject({ status: "failed", errorCode: "cancelled" });
    expect(answer.content.length).toBeGreaterThan(0);
  });

  it("refuses while off, an empty or too long message, and someone else's conversation — saving nothing", async () => {
    const count = async () => (await t.db.select().from(assistantMessages)).length;
    const before = await count();
    const requests = fake.requests.length;
    await expect(startTurn(t.db, { ...config, enabled: false }, member.id, { content: "Привет" })).rejects.toMatchObject({
      code: "assistant_disabled",
      status: 503,
    });
    await expect(startTurn(t.db, config, member.id, { content: "   " })).rejects.toMatchObject({
      code: "invalid_input",
      fieldErrors: { content: ["Напишите сообщение"] },
    });
    await expect(startTurn(t.db, config, member.id, { content: "я".repeat(201) })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/не больше 200/),
    });
    const [mine] = await listConversations(t.db, member.id);
    await expect(startTurn(t.db, config, other.id, { conversationId: mine!.id, content: "Привет" })).rejects.toMatchObject({
      code: "conversation_not_found",
      status: 404,
    });
    expect(await count()).toBe(before);
    expect(fake.requests.length).toBe(requests);
  });

  it("the daily quota: the request past it is refused with 429 and nothing is saved or sent", async () => {
    const small = { ...config, dailyQuota: 2 };
    const fresh = await makeUser(t.db);
    await askAssistant(t.db, small, fresh.id, { content: "Раз" });
    await askAssistant(t.db, small, fresh.id, { content: "Два" });
    const requests = fake.requests.length;
    await expect(startTurn(t.db, small, fresh.id, { content: "Три" })).rejects.toMatchObject({
      code: "assistant_quota_exceeded",
      status: 429,
      message: expect.stringMatching(/Дневной лимит/),
    });
    expect(fake.requests.length).toBe(requests);
    expect(await listConversations(t.db, fresh.id)).toHaveLength(2);
    expect(await getUsage(t.db, fresh.id, 2)).toEqual({ used: 2, quota: 2, remaining: 0 });
    // A new Moscow day starts at 21:00 UTC.
    expect(moscowDay(new Date("2025-01-01T20:59:00Z"))).toBe("2025-01-01");
    expect(moscowDay(new Date("2025-01-01T21:00:00Z"))).toBe("2025-01-02");
  });

  it("concurrent requests never pass the quota", async () => {
    const small = { ...config, dailyQuota: 3 };
    const fresh = await makeUser(t.db);
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => startTurn(t.db, small, fresh.id, { content: `Вопрос ${i}` })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect((await getUsage(t.db, fresh.id, 3)).used).toBe(3);
  });

  it("rename and delete are the owner's only; another member gets 404", async () => {
    const [mine] = await listConversations(t.db, member.id);
    await expect(renameConversation(t.db, other.id, mine!.id, "Чужое")).rejects.toMatchObject({ code: "conversation_not_found" });
    await expect(renameConversation(t.db, member.id, mine!.id, " ")).rejects.toMatchObject({ code: "invalid_input" });
    expect((await renameConversation(t.db, member.id, mine!.id, " Про продавцов ")).title).toBe("Про продавцов");
    await expect(getConversation(t.db, other.id, mine!.id)).rejects.toMatchObject({ code: "conversation_not_found" });
    await expect(deleteConversation(t.db, other.id, mine!.id)).rejects.toMatchObject({ code: "conversation_not_found" });
    await deleteConversation(t.db, member.id, mine!.id);
    expect((await listConversations(t.db, member.id)).map((c) => c.id)).not.toContain(mine!.id);
    expect(await t.db.select().from(assistantMessages).where(eq(assistantMessages.conversationId, mine!.id))).toEqual([]);
  });
});
