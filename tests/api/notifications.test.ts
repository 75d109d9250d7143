/**
 * Notifications over HTTP (issue 4 item 3, docs/product/notifications.md#calls): GET /api/profile/notifications and
 * /unread for a visitor, the recipient and another member, page bounds, the named targets
 * (docs/product/notifications.md#targets), and the forms of
 * /profile/notifications (read one and go to it, read all) without JavaScript.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { NotificationDto } from "~/domain/notifications/types";
import type { Page } from "~/lib/pagination";
import { Client, csrfFromHtml } from "./client";

async function member() {
  const client = new Client();
  const { username } = await client.register();
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
  return { client, username, id: me.id };
}

async function csrfOf(client: Client, path = "/") {
  return csrfFromHtml(await (await client.fetch(path)).text());
}

async function json<T>(client: Client, path: string): Promise<{ status: number; body: { success: boolean; data: T; errors?: { code: string } } }> {
  const response = await client.fetch(path);
  return { status: response.status, body: await response.json() };
}

const unreadOf = async (client: Client) => (await json<{ count: number }>(client, "/api/profile/notifications/unread")).body.data.count;

describe("notifications over HTTP", () => {
  let author: Awaited<ReturnType<typeof member>>;
  let fan: Awaited<ReturnType<typeof member>>;
  let postId: number;
  let commentId: number;

  beforeAll(async () => {
    [author, fan] = await Promise.all([member(), member()]);
    const created = await author.client.postForm("/posts/new", {
      csrf: await csrfOf(author.client, "/posts/new"),
      title: "Продам аккаунт Dota 2",
      body: "Текст поста",
      categoryId: "7",
      kind: "post",
    });
    expect(created.status).toBe(302);
    postId = Number(created.headers.get("Location")!.split("/").pop());

    const csrf = await csrfOf(fan.client, `/post/${postId}`);
    const liked = await fan.client.postForm("/likes", { csrf, target: "post", id: String(postId), liked: "true", redirectTo: `/post/${postId}` });
    expect(liked.status).toBe(302);
    const commented = await fan.client.postForm(`/post/${postId}/comments`, { csrf, intent: "create", body: "Сколько стоит?" });
    expect(commented.status).toBe(302);
    commentId = Number(/#comment-(\d+)$/.exec(commented.headers.get("Location")!)![1]);
    // Notifications are written by event subscribers after the answer: wait for them.
    await vi.waitFor(async () => expect(await unreadOf(author.client)).toBe(2), { timeout: 10_000, interval: 100 });
  });

  it("answers a visitor 401 `unauthorized` and refuses other methods with 405", async () => {
    const visitor = new Client();
    for (const path of ["/api/profile/notifications", "/api/profile/notifications/unread"]) {
      const { status, body } = await json(visitor, path);
      expect(status).toBe(401);
      expect(body).toMatchObject({ success: false, errors: { code: "unauthorized" } });
      const posted = await author.client.fetch(path, { method: "POST" });
      expect(posted.status).toBe(405);
    }
  });

  it("answers the unread counters members poll (before the router) as the routes do, and 401 once the session has ended", async () => {
    const someone = new Client();
    const { email, password } = await someone.register();
    const signedIn = await someone.signIn(email, password);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    // This session's cookie alone, as a client polling the counters sends it.
    const poll = (path: string, init: RequestInit = {}) => fetch(someone.baseUrl + path, { ...init, headers: { Cookie: cookie, ...init.headers } });
    for (const path of ["/api/profile/notifications/unread", "/api/profile/conversations/messages/unread"]) {
      const polled = await poll(path);
      expect(polled.status, path).toBe(200);
      expect(polled.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      expect(polled.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(polled.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
      // A query string sends the call through the router: the same answer.
      const routed = await poll(`${path}?from=test`);
      expect(await polled.json()).toEqual(await routed.json());
      expect((await poll(path, { method: "HEAD" })).status).toBe(200);
    }
    expect(await (await poll("/api/profile/conversations/messages/unread")).json()).toEqual({ success: true, data: { personal: [], group: [] } });

    const forged = await fetch(`${someone.baseUrl}/api/profile/notifications/unread`, { headers: { Cookie: "__session=forged" } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ success: false, errors: { code: "unauthorized", message: "Нужно войти на сайт" } });
    const signedOut = await someone.postForm("/api/auth/signout", { csrfToken: await someone.csrfToken(), callbackUrl: "/", json: "true" });
    expect(signedOut.status).toBe(200);
    const afterwards = await poll("/api/profile/notifications/unread");
    expect(afterwards.status).toBe(401);
    expect(await afterwards.json()).toMatchObject({ success: false, errors: { code: "unauthorized" } });
  });

  it("lists the member's own notifications, newest first, with sender, texts and links", async () => {
    const { status, body } = await json<Page<NotificationDto>>(author.client, "/api/profile/notifications");
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ page: 1, perPage: 10, total: 2, totalPages: 1 });
    expect(body.data.items).toMatchObject([
      {
        type: "POST_COMMENT_NEW",
        senderId: fan.id,
        sender: { name: fan.username, avatar: null, ranks: [] },
        postId,
        comment: { id: commentId, postId },
        title: `${fan.username} оставил(а) комментарий под вашим постом`,
        description: "Нажмите, чтобы посмотреть",
        url: `/post/${postId}#comment-${commentId}`,
        // The target is named (docs/product/notifications.md#targets): the comment's start and its post's title.
        target: { kind: "comment", text: "Сколько стоит?", postTitle: "Продам аккаунт Dota 2" },
        read: false,
      },
      {
        type: "POST_LIKE",
        title: `${fan.username} оценил(а) ваш пост`,
        url: `/post/${postId}`,
        target: { kind: "post", text: "Продам аккаунт Dota 2", postTitle: null },
        actorCount: 1,
        read: false,
      },
    ]);
    // The fan hears nothing of their own actions.
    expect((await json<Page<NotificationDto>>(fan.client, "/api/profile/notifications")).body.data).toMatchObject({ total: 0, items: [] });
    expect(await unreadOf(fan.client)).toBe(0);
  });

  it("keeps page parameters in bounds: perPage 1-50, pages from 1, junk falls back to the defaults", async () => {
    const page = (query: string) => json<Page<NotificationDto>>(author.client, `/api/profile/notifications${query}`).then((r) => r.body.data);
    expect(await page("?perPage=1")).toMatchObject({ page: 1, perPage: 1, total: 2, totalPages: 2, items: [{ type: "POST_COMMENT_NEW" }] });
    expect(await page("?perPage=1&page=2")).toMatchObject({ page: 2, items: [{ type: "POST_LIKE" }] });
    expect(await page("?perPage=1000")).toMatchObject({ perPage: 50 });
    expect(await page("?perPage=0&page=0")).toMatchObject({ page: 1, perPage: 1 });
    expect(await page("?page=abc&perPage=-5")).toMatchObject({ page: 1, perPage: 10 });
    expect(await page("?page=99")).toMatchObject({ page: 99, total: 2, items: [] });
  });

  it("/profile/notifications: a visitor is sent to sign in; a member sees the list with unread items marked", async () => {
    const visitor = await new Client().fetch("/profile/notifications?page=2");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent("/profile/notifications?page=2")}`);

    const html = await (await author.client.fetch("/profile/notifications")).text();
    expect(html).toContain(`${fan.username} оценил(а) ваш пост`);
    // Each names its target, which the click leads to (the item's form redirects to its link).
    expect(html).toContain("Пост «Продам аккаунт Dota 2»");
    expect(html).toContain("Комментарий «Сколько стоит?» к посту «Продам аккаунт Dota 2»");
    expect(html.match(/data-read="false"/g)).toHaveLength(2);
    expect(html).toContain("Отметить все как прочитанные");
    const empty = await (await fan.client.fetch("/profile/notifications")).text();
    expect(empty).toContain("Уведомлений пока нет");
  });

  it("reading: another member's id is not found, a bad id is refused, the own one is marked read and redirects to its link", async () => {
    const [comment] = (await json<Page<NotificationDto>>(author.client, "/api/profile/notifications?perPage=1")).body.data.items;
    const read = (client: Client, csrf: string, id: string) => client.postForm("/profile/notifications", { csrf, intent: "read", id });

    const fanCsrf = await csrfOf(fan.client);
    const foreign = await read(fan.client, fanCsrf, String(comment!.id));
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain("Уведомление не найдено");

    const csrf = await csrfOf(author.client);
    for (const bad of ["abc", "-1", "0", "99999999999"]) {
      const refused = await read(author.client, csrf, bad);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Неверный номер уведомления");
    }
    expect((await read(author.client, "forged", String(comment!.id))).status).toBe(403);
    expect(await unreadOf(author.client)).toBe(2);

    const ok = await read(author.client, csrf, String(comment!.id));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/post/${postId}#comment-${commentId}`);
    expect(await unreadOf(author.client)).toBe(1);
  });

  it("read-all marks everything read and goes back to the list", async () => {
    const csrf = await csrfOf(author.client);
    const response = await author.client.postForm("/profile/notifications?page=1", { csrf, intent: "read-all" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/profile/notifications?page=1");
    expect(await unreadOf(author.client)).toBe(0);
    const html = await (await author.client.fetch("/profile/notifications")).text();
    expect(html).toContain("Все уведомления отмечены как прочитанные");
    expect(html).not.toContain('data-read="false"');
    const unknown = await author.client.postForm("/profile/notifications", { csrf, intent: "delete" });
    expect(unknown.status).toBe(400);
  });
});
