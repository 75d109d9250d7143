/**
 * Comments over HTTP: the form target POST /post/{id}/comments (create, reply, edit, delete)
 * for visitors, members, the author and an admin, and GET /api/profile/{id}/comments.
 */
import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "./client";

/** A post of the demo data, read from the home page (posting has its own 30 s limit). */
async function demoPostId(): Promise<number> {
  const html = await (await new Client().fetch("/")).text();
  const id = /href="\/post\/(\d+)"/.exec(html)?.[1];
  if (!id) throw new Error("no post on the home page");
  return Number(id);
}

async function member() {
  const client = new Client();
  const { username } = await client.register();
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
  return { client, username, id: me.id };
}

/** Posts the comment form as a browser without JavaScript would (CSRF token from the post page). */
async function send(client: Client, postId: number, fields: Record<string, string>, withCsrf = true) {
  const csrf = csrfFromHtml(await (await client.fetch(`/post/${postId}`)).text());
  return client.postForm(`/post/${postId}/comments`, withCsrf ? { csrf, ...fields } : fields);
}

/** The comment id a successful form post redirects to. */
function commentIdFrom(response: Response, postId: number): number {
  const location = response.headers.get("Location") ?? "";
  const match = new RegExp(`^/post/${postId}#comment-(\\d+)$`).exec(location);
  if (!match) throw new Error(`unexpected redirect ${response.status} ${location}`);
  return Number(match[1]);
}

async function postPage(postId: number) {
  return decodeHtml(await (await new Client().fetch(`/post/${postId}`)).text());
}

describe("POST /post/{id}/comments", () => {
  it("sends a visitor to sign in and writes nothing; GET goes back to the post", async () => {
    const postId = await demoPostId();
    const visitor = new Client();
    const response = await send(visitor, postId, { intent: "create", body: "Комментарий гостя" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(`/post/${postId}/comments`)}`);
    expect(await postPage(postId)).not.toContain("Комментарий гостя");
    const get = await visitor.fetch(`/post/${postId}/comments`);
    expect(get.status).toBe(302);
    expect(get.headers.get("Location")).toBe(`/post/${postId}#comments`);
  });

  it("a member comments, another replies with a mention; anyone sees the thread and the profile list", async () => {
    const postId = await demoPostId();
    const [anna, boris] = await Promise.all([member(), member()]);
    const created = await send(anna.client, postId, { intent: "create", body: `Почём аккаунт? Спрошу и у @${boris.username}` });
    expect(created.status).toBe(302);
    const annaComment = commentIdFrom(created, postId);
    const replied = await send(boris.client, postId, { intent: "create", body: `@${anna.username}, цена в посте`, parentId: String(annaComment) });
    const borisReply = commentIdFrom(replied, postId);

    const html = await postPage(postId);
    expect(html).toContain(`id="comment-${annaComment}"`);
    expect(html).toContain(`id="comment-${borisReply}"`);
    expect(html).toContain(`<a href="/profile/${boris.id}" class="mention">@${boris.username}</a>`);
    expect(html).toContain(`<a href="/profile/${anna.id}" class="mention">@${anna.username}</a>`);
    // The reply sits inside Anna's thread, after her comment.
    const thread = html.slice(html.indexOf(`id="comment-${annaComment}"`));
    expect(thread.indexOf(`id="comment-${borisReply}"`)).toBeGreaterThan(0);

    const listed = await (await new Client().fetch(`/api/profile/${anna.id}/comments`)).json();
    expect(listed).toMatchObject({ success: true, data: { total: 1, page: 1, perPage: 10 } });
    expect(listed.data.items[0]).toMatchObject({ id: annaComment, post: { id: postId }, parentId: null });
    expect(listed.data.items[0].post.title).toEqual(expect.any(String));
    const borisList = await (await new Client().fetch(`/api/profile/${boris.id}/comments?perPage=5`)).json();
    expect(borisList.data.items).toEqual([expect.objectContaining({ id: borisReply, parentId: annaComment })]);
  });

  it("gives a member's page one comment-delete form that each «Удалить» button posts with its comment (decision 0039)", async () => {
    const postId = await demoPostId();
    const [author, other] = await Promise.all([member(), member()]);
    const first = commentIdFrom(await send(author.client, postId, { intent: "create", body: "Мой, удалю" }), postId);
    const second = commentIdFrom(await send(other.client, postId, { intent: "create", body: "Чужой, останется" }), postId);

    const html = decodeHtml(await (await author.client.fetch(`/post/${postId}`)).text());
    expect(html.match(/<form id="comment-delete"/g)).toHaveLength(1);
    const form = /<form id="comment-delete"[^>]*>.*?<\/form>/s.exec(html)?.[0] ?? "";
    expect(form).toContain(`action="/post/${postId}/comments"`);
    expect(form).toContain('name="intent" value="delete"');
    expect(form).toContain('name="csrf"');
    const button = (id: number) => new RegExp(`<button[^>]*form="comment-delete"[^>]*value="${id}"[^>]*>`).exec(html)?.[0] ?? "";
    expect(button(first)).toContain('name="commentId"');
    expect(button(second)).toBe("");
    // A visitor has nothing to delete: no form.
    expect((await (await new Client().fetch(`/post/${postId}`)).text()).match(/<form id="comment-delete"/g)).toBeNull();

    // What the browser sends for the button without JavaScript: the shared fields and its value.
    const deleted = await author.client.postForm(`/post/${postId}/comments`, { csrf: csrfFromHtml(html), intent: "delete", commentId: String(first) });
    expect(commentIdFrom(deleted, postId)).toBe(first);
    const after = await postPage(postId);
    expect(after.slice(after.indexOf(`id="comment-${first}"`), after.indexOf(`id="comment-${second}"`))).toContain("Комментарий удалён");
    expect(after.slice(after.indexOf(`id="comment-${second}"`))).toContain("Чужой, останется");
  });

  it("lets the author edit; strangers get 403; the author or an admin deletes and the reply stays", async () => {
    const postId = await demoPostId();
    const [author, replier, stranger] = await Promise.all([member(), member(), member()]);
    const commentId = commentIdFrom(await send(author.client, postId, { intent: "create", body: "Продам за 1000 ₽" }), postId);
    const replyId = commentIdFrom(await send(replier.client, postId, { intent: "create", body: "Беру за 900", parentId: String(commentId) }), postId);

    const forgedEdit = await send(stranger.client, postId, { intent: "edit", commentId: String(commentId), body: "Отдам даром" });
    expect(forgedEdit.status).toBe(403);
    expect(await forgedEdit.text()).toContain("Изменить комментарий может только его автор");
    const forgedDelete = await send(stranger.client, postId, { intent: "delete", commentId: String(commentId) });
    expect(forgedDelete.status).toBe(403);
    expect(await postPage(postId)).toContain("Продам за 1000 ₽");

    const edited = await send(author.client, postId, { intent: "edit", commentId: String(commentId), body: "Продам за 950 ₽" });
    expect(commentIdFrom(edited, postId)).toBe(commentId);
    const afterEdit = await postPage(postId);
    expect(afterEdit).toContain("Продам за 950 ₽");
    expect(afterEdit).not.toContain("Продам за 1000 ₽");

    expect(commentIdFrom(await send(author.client, postId, { intent: "delete", commentId: String(commentId) }), postId)).toBe(commentId);
    const afterDelete = await postPage(postId);
    expect(afterDelete).not.toContain("Продам за 950 ₽");
    const deletedBlock = afterDelete.slice(afterDelete.indexOf(`id="comment-${commentId}"`), afterDelete.indexOf(`id="comment-${replyId}"`));
    expect(deletedBlock).toContain("Комментарий удалён");
    expect(afterDelete).toContain("Беру за 900");
    expect((await (await new Client().fetch(`/api/profile/${author.id}/comments`)).json()).data.total).toBe(0);

    const admin = new Client();
    expect((await admin.signIn("admin@shodka.local", "admin12345")).status).toBe(200);
    expect(commentIdFrom(await send(admin, postId, { intent: "delete", commentId: String(replyId) }), postId)).toBe(replyId);
    expect(await postPage(postId)).not.toContain("Беру за 900");
  });

  it("refuses bad input in Russian, keeps the text, limits to one comment per 5 s and checks CSRF", async () => {
    const postId = await demoPostId();
    const { client } = await member();

    const empty = await send(client, postId, { intent: "create", body: "   " });
    expect(empty.status).toBe(400);
    const emptyPage = await empty.text();
    expect(emptyPage).toContain("Напишите комментарий");
    expect(emptyPage).toContain("<title>Комментарий не сохранён | Сходка</title>");

    const tooLong = await send(client, postId, { intent: "create", body: "я".repeat(10_001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toMatch(/Комментарий — не длиннее 10(\s|&nbsp;)000 символов/);

    const noCsrf = await send(client, postId, { intent: "create", body: "Без токена" }, false);
    expect(noCsrf.status).toBe(403);

    expect((await send(client, postId, { intent: "create", body: "Первый комментарий" })).status).toBe(302);
    const tooFast = await send(client, postId, { intent: "create", body: "Второй сразу же" });
    expect(tooFast.status).toBe(429);
    const tooFastPage = decodeHtml(await tooFast.text());
    expect(tooFastPage).toContain("Комментировать можно не чаще одного раза в 5 секунд");
    expect(tooFastPage).toContain("Второй сразу же");

    const html = await postPage(postId);
    expect(html).not.toContain("Без токена");
    expect(html).not.toContain("Второй сразу же");

    const malformed = await send(client, postId, { intent: "delete", commentId: "abc" });
    expect(malformed.status).toBe(400);
    const csrf = csrfFromHtml(await (await client.fetch(`/post/${postId}`)).text());
    const missing = await client.postForm("/post/999999999/comments", { csrf, intent: "delete", commentId: "1" });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Комментарий не найден");
  });

  it("answers a fetcher with data instead of a redirect", async () => {
    const postId = await demoPostId();
    const { client } = await member();
    const csrf = csrfFromHtml(await (await client.fetch(`/post/${postId}`)).text());
    const response = await client.postForm(`/post/${postId}/comments.data`, { csrf, intent: "create", body: "Через fetcher", via: "fetcher" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Location")).toBeNull();
    expect(await postPage(postId)).toContain("Через fetcher");
  });
});

describe("GET /api/profile/{id}/comments", () => {
  it("answers 404 profile_not_found for unknown members and clamps the page size", async () => {
    const visitor = new Client();
    for (const bad of ["999999", "abc", "-1", "0"]) {
      const response = await visitor.fetch(`/api/profile/${bad}/comments`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ success: false, errors: { code: "profile_not_found", message: "Пользователь не найден" } });
    }
    const { id } = await member();
    const body = await (await visitor.fetch(`/api/profile/${id}/comments?page=abc&perPage=1000`)).json();
    expect(body).toMatchObject({ success: true, data: { items: [], page: 1, perPage: 50, total: 0 } });
    const post = await visitor.fetch(`/api/profile/${id}/comments`, { method: "POST" });
    expect(post.status).toBe(405);
    expect((await post.json()).errors.code).toBe("method_not_allowed");
  });
});

describe("the post page sends comments rendered, not their Markdown (issue 12)", () => {
  it("shows a comment's rendering without its source to others; its author's edit form keeps the source", async () => {
    const postId = await demoPostId();
    const writer = await member();
    const marker = `жирно${Date.now()}`;
    const created = await send(writer.client, postId, { intent: "create", body: `Это **${marker}** и _наклон_` });
    const commentId = commentIdFrom(created, postId);

    const html = await postPage(postId);
    expect(html).toContain(`id="comment-${commentId}"`);
    expect(html).toContain(`<strong>${marker}</strong>`);
    expect(html).not.toContain(`**${marker}**`);

    // The author's page carries the source once, for the inline edit form.
    const own = decodeHtml(await (await writer.client.fetch(`/post/${postId}`)).text());
    expect(own).toContain(`**${marker}**`);
  });
});

describe("what a post page's comments weigh (issue 12, page weight)", () => {
  it("a visitor's page has no «Пожаловаться» and its links no route discovery attribute; a member's has «Пожаловаться» on others' comments", async () => {
    const postId = await demoPostId();
    const writer = await member();
    const created = await send(writer.client, postId, { intent: "create", body: "Комментарий, на который можно пожаловаться" });
    const commentId = commentIdFrom(created, postId);

    const visitorPage = await postPage(postId);
    expect(visitorPage).toContain(`id="comment-${commentId}"`);
    // Only members report (docs/product/moderation.md#reports): a visitor would be sent to sign in.
    expect(visitorPage).not.toContain("Пожаловаться");
    // Links and page forms carry no route discovery attribute (a fetcher's form still does).
    expect(visitorPage).not.toMatch(/<a [^>]*data-discover/);

    const reader = await member();
    const readerPage = decodeHtml(await (await reader.client.fetch(`/post/${postId}`)).text());
    expect(readerPage).toContain(`/report?type=comment&id=${commentId}&`);
    expect(readerPage).not.toMatch(/<a [^>]*data-discover/);
  });

  it("a comment carries only what its reader sees: no hover-card state, no anchor on a visitor's like link, no false flags in the page's data", async () => {
    const postId = await demoPostId();
    const writer = await member();
    const created = await send(writer.client, postId, { intent: "create", body: "Комментарий на вес" });
    const commentId = commentIdFrom(created, postId);
    const articleOf = (page: string) => {
      const start = page.indexOf(`<article id="comment-${commentId}"`);
      return page.slice(start, page.indexOf("</article>", start));
    };
    const dataOf = (page: string) => page.slice(page.indexOf("streamController.enqueue"));

    const visitorPage = await postPage(postId);
    const article = articleOf(visitorPage);
    expect(article).toContain(
      `<a class="avatar-link" href="/profile/${writer.id}"><span class="avatar avatar-sm avatar-default" role="img" aria-label="${writer.username}">`,
    );
    expect(article).toContain(`<span class="trust-trigger"><a class="member-name" href="/profile/${writer.id}">${writer.username}</a></span>`);
    expect(article).not.toContain("data-state");
    expect(article).toMatch(/<a class="btn btn-like" aria-label="Войдите, чтобы оценить" title="Войдите, чтобы оценить" href="\/auth\/login\?redirect=[^"]+">/);
    expect(article).not.toContain(`id="like-comment-${commentId}"`);
    // No comment is the visitor's to edit or delete: those flags, and the Markdown, stay out of the data.
    for (const key of ["canEdit", "canDelete", "body"]) expect(dataOf(visitorPage), key).not.toContain(`\\"${key}\\"`);

    const writerPage = decodeHtml(await (await writer.client.fetch(`/post/${postId}`)).text());
    expect(articleOf(writerPage)).toContain("Изменить");
    for (const key of ["canEdit", "canDelete", "body"]) expect(dataOf(writerPage), key).toContain(`\\"${key}\\"`);
    expect(dataOf(writerPage)).toContain("Комментарий на вес");
  });
});
