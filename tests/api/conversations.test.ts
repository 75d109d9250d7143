/**
 * The conversation calls of docs/product/conversations.md#calls over HTTP, with tables of callers: a visitor (401
 * `unauthorized`), a member outside the conversation (404 `conversation_not_found`, exactly like
 * an unknown id) and a member of it (200 with the documented shape). Also the POST that sends a
 * message (CSRF in the X-CSRF-Token header), malformed ids and queries (404/400, never 500).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "./client";
import { createGroup, member, postMessage, type Member } from "./members";

function send(who: Member | Client, kind: "group" | "personal", id: number | string, body: unknown, csrf?: string) {
  const client = who instanceof Client ? who : who.client;
  const token = csrf ?? (who instanceof Client ? undefined : who.csrf);
  return client.fetch(`/api/profile/conversation/${kind}/${id}/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { "X-CSRF-Token": token } : {}) },
    body: JSON.stringify(body),
  });
}

async function json(response: Response) {
  return (await response.json()) as { success: boolean; data?: any; errors?: { code: string; message: string } };
}

const visitor = () => new Client();

/** Shapes a member of the conversation gets. */
const pageShape = { page: 1, perPage: 10, total: expect.any(Number), totalPages: expect.any(Number), items: expect.any(Array) };
const messageShape = {
  id: expect.any(Number),
  conversationId: expect.any(Number),
  author: { id: expect.any(Number), username: expect.any(String) },
  body: expect.any(String),
  createdAt: expect.any(String),
  deleted: false,
};

let owner: Member;
let guest: Member;
let outsider: Member;
let groupId: number;
let personalId: number;

beforeAll(async () => {
  [owner, guest, outsider] = await Promise.all([member(), member(), member()]);
  groupId = await createGroup(owner, "Сделки по CS2", [guest]);
  const opened = await guest.client.fetch(`/api/profile/conversation/personal/user/${owner.id}`);
  personalId = (await json(opened)).data.id;
  await postMessage(owner, "group", groupId, "Привет, беседа!");
  await postMessage(guest, "group", groupId, "Привет!");
  await postMessage(guest, "personal", personalId, "Лично тебе");
}, 60_000);

describe("the GET calls of docs/product/conversations.md#calls: visitor, outsider, member", () => {
  /** Calls about one conversation: the outsider gets 404 like for an unknown id. */
  const conversationCalls = () => [
    {
      path: `/api/profile/conversation/group/${groupId}`,
      shape: { id: groupId, kind: "group", name: "Сделки по CS2", ownerId: owner.id, memberCount: 2, members: expect.any(Array), lastMessage: messageShape },
    },
    { path: `/api/profile/conversation/group/${groupId}/messages`, shape: { messages: [messageShape, messageShape], before: null } },
    {
      path: `/api/profile/conversation/personal/${personalId}`,
      shape: { id: personalId, kind: "personal", memberCount: 2, peer: { id: expect.any(Number) }, members: expect.any(Array), lastMessage: messageShape },
    },
    { path: `/api/profile/conversation/personal/${personalId}/messages`, shape: { messages: [messageShape], before: null } },
  ];

  it("conversation calls: 401 signed out, 404 for an outsider, 200 with the shape for both members", async () => {
    for (const { path, shape } of conversationCalls()) {
      const signedOut = await visitor().fetch(path);
      expect(signedOut.status, path).toBe(401);
      expect(await json(signedOut), path).toMatchObject({ success: false, errors: { code: "unauthorized", message: "Нужно войти на сайт" } });

      const foreign = await outsider.client.fetch(path);
      expect(foreign.status, path).toBe(404);
      expect((await json(foreign)).errors, path).toMatchObject({ code: "conversation_not_found", message: "Беседа не найдена" });

      for (const who of [owner, guest]) {
        const response = await who.client.fetch(path);
        expect(response.status, path).toBe(200);
        expect(await json(response), path).toMatchObject({ success: true, data: shape });
      }
    }
  });

  it("list calls: 401 signed out; a member sees their conversations, an outsider none of them", async () => {
    const lists = [
      { path: "/api/profile/conversations/groups", id: groupId, unread: { owner: 1, guest: 0 } },
      { path: "/api/profile/conversations/personal", id: personalId, unread: { owner: 1, guest: 0 } },
    ];
    for (const { path, id, unread } of lists) {
      expect((await visitor().fetch(path)).status, path).toBe(401);
      const foreign = await json(await outsider.client.fetch(path));
      expect(foreign).toMatchObject({ success: true, data: { ...pageShape, total: 0, items: [] } });
      for (const [who, count] of [
        [owner, unread.owner],
        [guest, unread.guest],
      ] as const) {
        const body = await json(await who.client.fetch(path));
        expect(body, path).toMatchObject({ success: true, data: { ...pageShape, total: 1 } });
        expect(body.data.items[0], path).toMatchObject({ id, unreadMessages: count, lastMessage: messageShape });
      }
    }
    for (const path of ["/api/profile/conversations/groups/messages", "/api/profile/conversations/personal/messages"]) {
      expect((await visitor().fetch(path)).status, path).toBe(401);
      expect(await json(await outsider.client.fetch(path))).toMatchObject({ success: true, data: { ...pageShape, total: 0 } });
      const body = await json(await owner.client.fetch(path));
      expect(body, path).toMatchObject({ success: true, data: { ...pageShape, total: 1, items: [messageShape] } });
    }
    expect((await json(await owner.client.fetch("/api/profile/conversations/groups/messages"))).data.items[0].body).toBe("Привет!");
  });

  it("the unread record: 401 signed out; exact counts per conversation for a member", async () => {
    const path = "/api/profile/conversations/messages/unread";
    expect((await visitor().fetch(path)).status).toBe(401);
    expect(await json(await outsider.client.fetch(path))).toEqual({ success: true, data: { personal: [], group: [] } });
    expect(await json(await owner.client.fetch(path))).toEqual({
      success: true,
      data: {
        personal: [{ conversationId: personalId, unreadMessages: 1, processed: true }],
        group: [{ conversationId: groupId, unreadMessages: 1, processed: true }],
      },
    });
    expect((await json(await guest.client.fetch(path))).data).toEqual({ personal: [], group: [] });
  });

  it("personal/user/{userId}: the same conversation id for both members; 401, 400 for oneself, 404 for unknown members", async () => {
    const [a, b] = await Promise.all([member(), member()]);
    const fromA = await json(await a.client.fetch(`/api/profile/conversation/personal/user/${b.id}`));
    const fromB = await json(await b.client.fetch(`/api/profile/conversation/personal/user/${a.id}`));
    expect(fromA).toEqual({ success: true, data: { id: expect.any(Number) } });
    expect(fromB.data.id).toBe(fromA.data.id);
    expect((await a.client.fetch(`/api/profile/conversation/personal/${fromA.data.id}`)).status).toBe(200);
    expect((await outsider.client.fetch(`/api/profile/conversation/personal/${fromA.data.id}`)).status).toBe(404);

    expect((await visitor().fetch(`/api/profile/conversation/personal/user/${b.id}`)).status).toBe(401);
    const self = await a.client.fetch(`/api/profile/conversation/personal/user/${a.id}`);
    expect(self.status).toBe(400);
    expect((await json(self)).errors).toMatchObject({ code: "cannot_message_self", message: "Нельзя написать самому себе" });
    for (const bad of ["99999999", "abc", "0", "-3", "99999999999", "1.5"]) {
      const response = await a.client.fetch(`/api/profile/conversation/personal/user/${bad}`);
      expect(response.status, bad).toBe(404);
      expect((await json(response)).errors, bad).toMatchObject({ code: "profile_not_found", message: "Пользователь не найден" });
    }
  });

  it("malformed conversation ids answer 404 and malformed history queries 400, never 500", async () => {
    for (const bad of ["abc", "0", "-1", "99999999999", "1e3", "999999"]) {
      for (const path of [
        `/api/profile/conversation/group/${bad}`,
        `/api/profile/conversation/group/${bad}/messages`,
        `/api/profile/conversation/personal/${bad}`,
        `/api/profile/conversation/personal/${bad}/messages`,
      ]) {
        const response = await owner.client.fetch(path);
        expect(response.status, path).toBe(404);
        expect((await json(response)).errors?.code, path).toBe("conversation_not_found");
      }
    }
    // A group is not a personal conversation, and the other way round.
    expect((await owner.client.fetch(`/api/profile/conversation/personal/${groupId}`)).status).toBe(404);
    expect((await owner.client.fetch(`/api/profile/conversation/group/${personalId}/messages`)).status).toBe(404);
    for (const query of ["before=abc", "before=-1", "limit=0", "limit=101", "limit=x", "before=99999999999"]) {
      const response = await owner.client.fetch(`/api/profile/conversation/group/${groupId}/messages?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).errors?.code, query).toBe("invalid_query");
    }
    const page = await json(await owner.client.fetch("/api/profile/conversations/groups?page=abc&perPage=1000"));
    expect(page.data).toMatchObject({ page: 1, perPage: 50 });
  });

  it("read-only calls answer 405 to POST", async () => {
    for (const path of [
      "/api/profile/conversations/groups",
      `/api/profile/conversation/group/${groupId}`,
      "/api/profile/conversations/groups/messages",
      "/api/profile/conversations/personal",
      `/api/profile/conversation/personal/${personalId}`,
      "/api/profile/conversations/personal/messages",
      `/api/profile/conversation/personal/user/${guest.id}`,
      "/api/profile/conversations/messages/unread",
    ]) {
      const response = await owner.client.fetch(path, { method: "POST", headers: { "X-CSRF-Token": owner.csrf } });
      expect(response.status, path).toBe(405);
      expect((await json(response)).errors?.code, path).toBe("method_not_allowed");
    }
  });
});

describe("history paging over HTTP", () => {
  it("loads upwards with before and limit", async () => {
    const [a, b] = await Promise.all([member(), member()]);
    const chat = (await json(await a.client.fetch(`/api/profile/conversation/personal/user/${b.id}`))).data.id as number;
    const sent: number[] = [];
    for (let i = 1; i <= 5; i++) sent.push((await postMessage(i % 2 ? a : b, "personal", chat, `Сообщение ${i}`)).id);
    const top = (await json(await b.client.fetch(`/api/profile/conversation/personal/${chat}/messages?limit=2`))).data;
    expect(top.messages.map((m: { id: number }) => m.id)).toEqual(sent.slice(3));
    expect(top.before).toBe(sent[3]);
    const above = (await json(await b.client.fetch(`/api/profile/conversation/personal/${chat}/messages?limit=2&before=${top.before}`))).data;
    expect(above.messages.map((m: { body: string }) => m.body)).toEqual(["Сообщение 2", "Сообщение 3"]);
    const first = (await json(await b.client.fetch(`/api/profile/conversation/personal/${chat}/messages?limit=2&before=${above.before}`))).data;
    expect(first).toMatchObject({ messages: [{ body: "Сообщение 1" }], before: null });
  });
});

describe("POST …/messages: sending over HTTP", () => {
  it("a member sends with the CSRF header (JSON) or the csrf field (form) and gets the message back", async () => {
    const response = await send(guest, "group", groupId, { body: "  Кто за?  " });
    expect(response.status).toBe(200);
    const sent = (await json(response)).data;
    expect(sent).toMatchObject({
      ...messageShape,
      conversationId: groupId,
      author: { id: guest.id, username: guest.username },
      body: "Кто за?",
      replyTo: null,
    });
    const reply = await postMessage(owner, "group", groupId, "Я за", sent.id);
    expect(reply).toMatchObject({ replyTo: { id: sent.id, author: guest.username, excerpt: "Кто за?", deleted: false } });

    const form = await owner.client.postForm(`/api/profile/conversation/personal/${personalId}/messages`, { csrf: owner.csrf, body: "Через форму" });
    expect(form.status).toBe(200);
    expect((await json(form)).data).toMatchObject({ body: "Через форму", author: { id: owner.id } });
  });

  it("refuses visitors (401), outsiders (404), missing or foreign CSRF tokens (403) and bad bodies (400)", async () => {
    for (const kind of ["group", "personal"] as const) {
      const id = kind === "group" ? groupId : personalId;
      const signedOut = await send(visitor(), kind, id, { body: "Привет" });
      expect(signedOut.status).toBe(401);
      expect((await json(signedOut)).errors?.code).toBe("unauthorized");

      const foreign = await send(outsider, kind, id, { body: "Привет" });
      expect(foreign.status).toBe(404);
      expect((await json(foreign)).errors?.code).toBe("conversation_not_found");

      for (const token of [undefined, "", "forged.token", outsider.csrf]) {
        const response = await guest.client.fetch(`/api/profile/conversation/${kind}/${id}/messages`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...(token === undefined ? {} : { "X-CSRF-Token": token }) },
          body: JSON.stringify({ body: "Без токена" }),
        });
        expect(response.status, String(token)).toBe(403);
        expect((await json(response)).errors?.code).toBe("csrf_invalid");
      }

      for (const body of [{ body: "   " }, { body: "ы".repeat(4001) }, {}, { body: 42 }, { body: "Ок", replyToId: "abc" }]) {
        const response = await send(guest, kind, id, body);
        expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect((await json(response)).errors?.code).toBe("invalid_input");
      }
      const notJson = await guest.client.fetch(`/api/profile/conversation/${kind}/${id}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": guest.csrf },
        body: "{oops",
      });
      expect(notJson.status).toBe(400);
      expect((await json(notJson)).errors?.code).toBe("invalid_body");
      const elsewhere = await send(guest, kind, id, { body: "Ответ", replyToId: 999_999_999 });
      expect(elsewhere.status).toBe(400);
      expect((await json(elsewhere)).errors?.code).toBe("reply_not_found");
    }
    expect((await send(owner, "group", "abc", { body: "Привет" })).status).toBe(404);
  });

  it("every member writes in the public conversation, addressed as a group", async () => {
    const reader = await member();
    // Migration 0005 inserts it as the very first conversation.
    const detail = await json(await reader.client.fetch("/api/profile/conversation/group/1"));
    expect(detail).toMatchObject({ success: true, data: { id: 1, kind: "public", name: "Общий чат", members: [], unreadMessages: 0 } });
    expect((await visitor().fetch("/api/profile/conversation/group/1/messages")).status).toBe(401);
    expect((await reader.client.fetch("/api/profile/conversation/personal/1")).status).toBe(404);
    const sent = await postMessage(reader, "group", 1, `Всем привет от @${owner.username}`);
    const history = (await json(await outsider.client.fetch("/api/profile/conversation/group/1/messages"))).data;
    expect(history.messages.at(-1)).toMatchObject({ id: sent.id, author: { id: reader.id } });
  });

  it("a member sends at most 20 messages in 30 seconds (429 rate_limited)", async () => {
    const [a, b] = await Promise.all([member(), member()]);
    const chat = (await json(await a.client.fetch(`/api/profile/conversation/personal/user/${b.id}`))).data.id as number;
    for (let i = 0; i < 20; i++) await postMessage(a, "personal", chat, `Флуд ${i}`);
    const refused = await send(a, "personal", chat, { body: "Ещё" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await json(refused)).errors).toMatchObject({ code: "rate_limited", message: expect.stringContaining("20 за 30 секунд") });
  });
});
