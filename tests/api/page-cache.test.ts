/**
 * The visitor page cache (issue 12; app/lib/page-cache.server.ts): visitors' public pages are
 * answered from memory, yet a visitor never receives a member's page, a new comment shows on the
 * next request, a deleted post is gone from cached pages, every reader's forms carry their own
 * CSRF token, and an unchanged page answers 304.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";
import { waitFor } from "../setup/wait";
import { Client as BaseClient, csrfFromHtml, decodeHtml } from "./client";
import { createGroup, member as sharedServerMember, postMessage, type Member } from "./members";

// A server of its own: the shared one's writes from other files would empty the cache between
// two requests of a test here.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

class Client extends BaseClient {
  constructor() {
    super(server.baseUrl);
  }
}

const member = () => sharedServerMember(server.baseUrl);

async function publishPost(author: Member, title: string): Promise<number> {
  const created = await author.client.postForm("/posts/new", {
    csrf: author.csrf,
    title,
    body: "Текст поста для проверки кэша страниц",
    categoryId: "7",
    kind: "post",
  });
  expect(created.status).toBe(302);
  return Number(created.headers.get("Location")!.split("/").pop());
}

async function admin(): Promise<Member> {
  const client = new Client();
  expect((await client.signIn("admin@shodka.local", "admin12345")).status).toBe(200);
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; apiToken: string; username: string };
  const csrf = csrfFromHtml(await (await client.fetch(`/profile/${me.id}`)).text());
  return { client, id: me.id, username: me.username, apiToken: me.apiToken, csrf };
}

/** A visitor's GET of `path`: status, the cache's verdict and the decoded page. */
async function visit(client: Client, path: string, headers: Record<string, string> = {}) {
  const response = await client.fetch(path, { headers });
  return { status: response.status, cache: response.headers.get("X-Page-Cache"), etag: response.headers.get("ETag"), html: decodeHtml(await response.text()) };
}

describe("the visitor page cache", () => {
  it("answers a second visitor from the cache, with that visitor's own working CSRF token", async () => {
    const author = await member();
    const postId = await publishPost(author, `Кэш для гостей ${Date.now()}`);
    const first = new Client();
    const second = new Client();
    const firstVisit = await visit(first, `/post/${postId}`);
    const secondVisit = await visit(second, `/post/${postId}`);
    expect(firstVisit.status).toBe(200);
    expect(secondVisit.cache).toBe("HIT");
    expect(secondVisit.html).toContain("Кэш для гостей");
    const firstToken = csrfFromHtml(firstVisit.html);
    const secondToken = csrfFromHtml(secondVisit.html);
    expect(secondToken).not.toBe(firstToken);
    // The second visitor's form (the colour-scheme switch) is accepted with the token the cached page gave them.
    const switched = await second.postForm("/settings/color-scheme", { csrf: secondToken, scheme: "dark", redirectTo: `/post/${postId}` });
    expect(switched.status).toBe(302);
    // Their next page is the dark one, not the light page stored for others.
    expect((await visit(second, `/post/${postId}`)).html).toMatch(/<html[^>]*class="[^"]*\bdark\b/);
    expect((await visit(first, `/post/${postId}`)).html).not.toMatch(/<html[^>]*class="[^"]*\bdark\b/);
  });

  it("answers a stored page as any page: its own nonce in the policy and the scripts, a request id, the security headers, gzip and a log line", async () => {
    await visit(new Client(), "/faq");
    const response = await new Client().fetch("/faq", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("X-Page-Cache")).toBe("HIT");
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    const html = await response.text();
    expect(html).toContain("Вопросы и ответы");
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];
    expect(nonce).toMatch(/^[\w+/]{22}==$/);
    // Every script runs under this answer's nonce, none under the one the page was rendered with.
    const scriptNonces = new Set([...html.matchAll(/<script nonce="([^"]+)"/g)].map((match) => match[1]));
    expect([...scriptNonces]).toEqual([nonce]);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    const requestId = response.headers.get("X-Request-Id");
    expect(requestId).toMatch(/^[\w-]{36}$/);
    const line = await waitFor(
      () =>
        server
          .output()
          .split("\n")
          .find((logged) => logged.includes(`"reqId":"${requestId}"`)),
      "the answer's line in the request log",
    );
    expect(JSON.parse(line)).toMatchObject({ method: "GET", url: "/faq", statusCode: 200, msg: expect.stringMatching(/^GET \/faq 200 \d+ms$/) });
  });

  it("answers a member's posts call (JSON) to visitors from the cache, without a cookie, and shows a new post at once", async () => {
    const author = await member();
    const path = `/api/profile/${author.id}/posts`;
    const titles = async (response: Response) => ((await response.json()) as { data: { items: { title: string }[] } }).data.items.map((post) => post.title);
    const first = await new Client().fetch(path);
    expect(first.status).toBe(200);
    const second = await new Client().fetch(path);
    expect(second.headers.get("X-Page-Cache")).toBe("HIT");
    expect(second.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(second.headers.getSetCookie()).toEqual([]);
    expect(await titles(second)).toEqual(await titles(first));
    // The same answer for every reader: a visitor holding it gets 304.
    const etag = second.headers.get("ETag")!;
    expect((await new Client().fetch(path, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const title = `Новый пост для кэша ${Date.now()}`;
    await publishPost(author, title);
    const after = await new Client().fetch(path);
    expect(after.headers.get("X-Page-Cache")).toBe("MISS");
    expect((await titles(after))[0]).toBe(title);
  });

  it("stores a page first rendered for one visitor's token without handing that token to the next visitor", async () => {
    // remix-utils' own tokens drew from an alphabet with «&», written as &amp; in the form and
    // \u0026 in the hydration script, and such a page once went to the next visitor with the first
    // one's token; the cache cuts every spelling (app/lib/page-cache.server.test.ts), and tokens
    // are now base64url (app/lib/csrf.server.ts), which no page escapes.
    const author = await member();
    const postId = await publishPost(author, `Кэш и токен ${Date.now()}`);
    const first = new Client();
    const firstToken = csrfFromHtml(decodeHtml(await (await first.fetch("/music")).text()));
    expect(firstToken).toMatch(/^[\w-]+\.[\w=-]+$/);
    const firstVisit = await visit(first, `/post/${postId}`);
    expect(firstVisit.cache).toBe("MISS");
    const second = new Client();
    const secondVisit = await visit(second, `/post/${postId}`);
    expect(secondVisit.cache).toBe("HIT");
    const signature = firstToken.slice(firstToken.lastIndexOf(".") + 1);
    expect(secondVisit.html).not.toContain(signature);
    const secondToken = csrfFromHtml(secondVisit.html);
    expect(secondToken).not.toBe(firstToken);
    const switched = await second.postForm("/settings/color-scheme", { csrf: secondToken, scheme: "dark", redirectTo: `/post/${postId}` });
    expect(switched.status).toBe(302);
  });

  it("never gives a member's page to a visitor, nor a visitor's page to a member", async () => {
    const author = await member();
    const postId = await publishPost(author, `Страница участника ${Date.now()}`);
    await visit(new Client(), `/post/${postId}`);
    const own = await author.client.fetch(`/post/${postId}`);
    expect(own.headers.get("X-Page-Cache")).toBeNull();
    const ownHtml = decodeHtml(await own.text());
    expect(ownHtml).toContain(author.username);
    expect(ownHtml).toContain("Выйти");

    // A member's home page first, then a visitor's: the visitor gets the signed-out header.
    const reader = await member();
    const readerHome = await reader.client.fetch("/");
    expect(readerHome.headers.get("X-Page-Cache")).toBeNull();
    expect(decodeHtml(await readerHome.text())).toContain("Выйти");
    const visitorHome = await visit(new Client(), "/");
    expect(visitorHome.html).not.toContain("Выйти");
    expect(visitorHome.html).toContain("Войти");
  });

  it("shows a new comment on the next visitor request, and a deleted post is gone from cached pages", async () => {
    const author = await member();
    const title = `Пост для проверки свежести ${Date.now()}`;
    const postId = await publishPost(author, title);
    const reader = new Client();
    await visit(reader, `/post/${postId}`);
    expect((await visit(reader, `/post/${postId}`)).cache).toBe("HIT");
    expect((await visit(reader, "/")).html).toContain(title);

    const commented = await author.client.postForm(`/post/${postId}/comments`, { csrf: author.csrf, intent: "create", body: "Свежий комментарий" });
    expect(commented.status).toBe(302);
    expect((await visit(reader, `/post/${postId}`)).html).toContain("Свежий комментарий");

    const moderator = await admin();
    const deleted = await moderator.client.postForm("/moderation", {
      csrf: moderator.csrf,
      intent: "delete",
      type: "post",
      id: String(postId),
      redirectTo: "/",
    });
    expect(deleted.status).toBe(302);
    expect((await visit(reader, `/post/${postId}`)).status).toBe(404);
    expect((await visit(reader, "/")).html).not.toContain(title);
  });

  it("keeps visitors' pages through writes no visitor page shows: chat messages, a group, a colour scheme; a comment still empties it", async () => {
    const author = await member();
    const friend = await member();
    const postId = await publishPost(author, `Пост рядом с чатом ${Date.now()}`);
    const reader = new Client();
    await visit(reader, `/post/${postId}`);
    expect((await visit(reader, `/post/${postId}`)).cache).toBe("HIT");

    // A message in the public conversation over the API, a group with one in it through the page's forms.
    await postMessage(author, "group", 1, "Сообщение, которого нет ни на одной странице гостя");
    const groupId = await createGroup(author, `Беседа ${Date.now()}`, [friend]);
    const sent = await author.client.postForm(`/profile/conversations?group=${groupId}`, { csrf: author.csrf, intent: "send", body: "Привет всем в группе" });
    expect(sent.status).toBe(302);
    // Another visitor's colour scheme: pages are stored per scheme.
    const other = new Client();
    const token = csrfFromHtml((await visit(other, "/faq")).html);
    expect((await other.postForm("/settings/color-scheme", { csrf: token, scheme: "dark", redirectTo: "/faq" })).status).toBe(302);
    expect((await visit(reader, `/post/${postId}`)).cache).toBe("HIT");

    const commented = await author.client.postForm(`/post/${postId}/comments`, { csrf: author.csrf, intent: "create", body: "Комментарий после чата" });
    expect(commented.status).toBe(302);
    const fresh = await visit(reader, `/post/${postId}`);
    expect(fresh.cache).toBe("MISS");
    expect(fresh.html).toContain("Комментарий после чата");
  });

  it("answers 304 to a visitor whose copy is current, without a policy that would not match it", async () => {
    const reader = new Client();
    await visit(reader, "/leaderboard");
    const stored = await visit(reader, "/leaderboard");
    expect(stored.cache).toBe("HIT");
    expect(stored.etag).toMatch(/^".+"$/);
    const again = await reader.fetch("/leaderboard", { headers: { "If-None-Match": stored.etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("Content-Security-Policy")).toBeNull();
    // Another visitor holds another token, so the same ETag is not theirs.
    const other = new Client();
    await other.fetch("/leaderboard");
    expect((await other.fetch("/leaderboard", { headers: { "If-None-Match": stored.etag! } })).status).toBe(200);
  });

  it("answers 304 without a policy when a page rendered again after a write is the visitor's copy", async () => {
    const reader = new Client();
    const first = await visit(reader, "/faq");
    // A write anywhere empties the cache; the next request renders the unchanged page again.
    const author = await member();
    await publishPost(author, `Запись между визитами ${Date.now()}`);
    // As a browser's reload asks (fetch() would add "no-cache", which forbids a 304).
    const again = await reader.fetch("/faq", { headers: { "If-None-Match": first.etag!, "Cache-Control": "max-age=0" } });
    expect(again.headers.get("X-Page-Cache")).toBe("MISS");
    expect(again.status).toBe(304);
    // A policy here would replace the one the browser stored with the page, and its nonce would
    // not match the stored page's scripts.
    expect(again.headers.get("Content-Security-Policy")).toBeNull();
  });
});
