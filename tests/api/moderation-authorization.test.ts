/**
 * Reports and moderators' content actions over HTTP (issue 10; docs/product/moderation.md#reports
 * and #content-actions): who may open /report and /admin/reports, file a report, decide a queue
 * entry and post to /moderation — a visitor, a member, the member concerned (the author), the
 * demo moderator and the demo admin — and that bad input (an already deleted item, an unknown
 * target, an overlong reason, an unknown category) is a Russian refusal that changes nothing.
 * Forms are posted as a browser without JavaScript does (302 on success, the page on refusal),
 * and as a fetcher (`.data`, `via=fetcher`) for the stable codes.
 */
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";
import { member, postMessage, type Member } from "./members";

/** A demo account (app/db/seed), signed in, with the CSRF token of its pages. */
async function demo(email: string, password: string): Promise<Member> {
  const client = new Client();
  const signin = await client.signIn(email, password);
  expect(signin.status).toBeLessThan(400);
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number; name: string; apiToken: string };
  const csrf = csrfFromHtml(await (await client.fetch(`/profile/${me.id}`)).text());
  return { client, id: me.id, username: me.name, apiToken: me.apiToken, csrf };
}

/** A visitor with a CSRF token (a page gave them one), so only the missing sign-in refuses them. */
async function visitor(): Promise<Member> {
  const client = new Client();
  const csrf = csrfFromHtml(await (await client.fetch("/")).text());
  return { client, id: 0, username: "", apiToken: "", csrf };
}

/** Posts a form as a browser without JavaScript does. */
function post(who: Member, path: string, fields: Record<string, string>): Promise<Response> {
  return who.client.postForm(path, { csrf: who.csrf, ...fields });
}

/** Posts a form as a fetcher does; returns the status and the decoded action data. */
async function fetcherPost(who: Member, path: string, fields: Record<string, string>) {
  const [pathname, search] = path.split("?");
  const response = await who.client.postForm(`${pathname}.data${search ? `?${search}` : ""}`, { csrf: who.csrf, via: "fetcher", ...fields });
  const decoded = await decodeViaTurboStream(response.body!, globalThis);
  await decoded.done;
  return { status: response.status, data: (decoded.value as { data: unknown }).data as Record<string, unknown> };
}

/** The member publishes a post; returns its id. */
async function publishPost(author: Member, title: string): Promise<number> {
  const created = await post(author, "/posts/new", { title, body: "Текст поста для проверки модерации", categoryId: "7", kind: "post" });
  expect(created.status).toBe(302);
  return Number(created.headers.get("Location")!.split("/").pop());
}

async function comment(author: Member, postId: number, body: string): Promise<number> {
  const created = await post(author, `/post/${postId}/comments`, { intent: "create", body });
  expect(created.status).toBe(302);
  return Number(/#comment-(\d+)/.exec(created.headers.get("Location")!)![1]);
}

async function wallEntry(author: Member, body: string): Promise<number> {
  expect((await post(author, `/profile/${author.id}/wall`, { intent: "create", body })).status).toBe(302);
  const wall = (await (await new Client().fetch(`/api/profile/${author.id}/wall`)).json()) as { data: { items: { id: number; body: string }[] } };
  return wall.data.items.find((e) => e.body === body)!.id;
}

/** The post page's HTML as `who` sees it (status and text). */
async function page(who: Member, path: string) {
  const response = await who.client.fetch(path);
  return { status: response.status, html: await response.text() };
}

let anon: Member;
let stranger: Member;
let author: Member;
let moderator: Member;
let admin: Member;

beforeAll(async () => {
  [anon, stranger, author, moderator, admin] = await Promise.all([
    visitor(),
    member(),
    member(),
    demo("moderator@shodka.local", "moder12345"),
    demo("admin@shodka.local", "admin12345"),
  ]);
});

describe("GET /admin/reports and /report", () => {
  it("the queue: a visitor signs in first, members (the author too) get 403, moderators and admins see it", async () => {
    const table: [string, Member, number][] = [
      ["visitor", anon, 302],
      ["member", stranger, 403],
      ["author", author, 403],
      ["moderator", moderator, 200],
      ["admin", admin, 200],
    ];
    for (const [who, caller, status] of table) {
      const response = await caller.client.fetch("/admin/reports");
      expect(response.status, who).toBe(status);
      if (status === 302) expect(response.headers.get("Location"), who).toMatch(/^\/auth\/login\?redirect=%2Fadmin%2Freports/);
      // The admin layout answers for the whole area (app/routes/admin/layout.tsx).
      if (status === 403) expect(await response.text(), who).toContain("Раздел доступен только модераторам и администраторам");
      if (status === 200) expect(await response.text(), who).toContain("Жалобы");
    }
  });

  it("the report page: a visitor signs in first, any member sees the form", async () => {
    const path = `/report?type=profile&id=${author.id}`;
    const response = await anon.client.fetch(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth\/login/);
    for (const caller of [stranger, author, moderator, admin]) {
      const { status, html } = await page(caller, path);
      expect(status).toBe(200);
      expect(html).toContain("Отправить жалобу");
    }
    expect((await page(stranger, "/report?type=planet&id=1")).html).toContain("На это нельзя пожаловаться");
  });
});

describe("POST /report", () => {
  let postId: number;
  beforeAll(async () => {
    postId = await publishPost(author, "Продам аккаунт, пишите в личку");
  });

  it("a visitor signs in first; the author cannot report their own post; others report once each", async () => {
    const fields = { targetType: "post", targetId: String(postId), reason: "spam" };
    const path = `/report?type=post&id=${postId}&back=${encodeURIComponent(`/post/${postId}`)}`;
    const visit = await post(anon, path, fields);
    expect(visit.status).toBe(302);
    expect(visit.headers.get("Location")).toMatch(/^\/auth\/login/);

    const own = await fetcherPost(author, path, fields);
    expect(own.status).toBe(400);
    expect(JSON.stringify(own.data)).toContain("Нельзя пожаловаться на самого себя");

    // Without JavaScript: back to the report page, which says it was sent.
    const filed = await post(stranger, path, fields);
    expect(filed.status).toBe(302);
    expect(filed.headers.get("Location")).toContain("sent=1");
    expect((await page(stranger, filed.headers.get("Location")!)).html).toContain("Жалоба отправлена");
    // With JavaScript: back to the post, with the toast.
    const byModerator = await fetcherPost(moderator, path, { ...fields, reason: "fraud" });
    expect(byModerator.status).toBe(202);

    const again = await post(stranger, path, fields);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Вы уже пожаловались на это");
  });

  it("comments, wall entries, public-chat messages and profiles are reported the same way", async () => {
    const targets: [string, number][] = [
      ["comment", await comment(author, postId, `Комментарий для жалобы ${Date.now()}`)],
      ["wall_post", await wallEntry(author, `Запись для жалобы ${Date.now()}`)],
      ["message", (await postMessage(author, "group", 1, "Сообщение для жалобы")).id],
      ["profile", author.id],
    ];
    for (const [type, id] of targets) {
      const path = `/report?type=${type}&id=${id}`;
      const fields = { targetType: type, targetId: String(id), reason: "abuse", details: "Грубит" };
      const own = await post(author, path, fields);
      expect(own.status, type).toBe(400);
      expect(await own.text(), type).toContain("Нельзя пожаловаться на самого себя");
      expect((await post(stranger, path, fields)).status, type).toBe(302);
      const again = await fetcherPost(stranger, path, fields);
      expect(again.status, type).toBe(409);
    }
    const queue = (await page(moderator, "/admin/reports?perPage=100")).html;
    for (const [type, id] of targets) expect(queue, type).toContain(`data-target="${type}:${id}"`);
  });

  it("bad input is refused in Russian and files nothing", async () => {
    const path = `/report?type=post&id=${postId}`;
    const cases: [Record<string, string>, number, string][] = [
      [{ targetType: "post", targetId: "999999999", reason: "spam" }, 404, "Пост не найден"],
      [{ targetType: "planet", targetId: String(postId), reason: "spam" }, 400, "На это нельзя пожаловаться"],
      [{ targetType: "post", targetId: String(postId), reason: "boredom" }, 400, "Выберите причину жалобы"],
      [{ targetType: "post", targetId: String(postId), reason: "other", details: "" }, 400, "Опишите, что не так"],
      [{ targetType: "post", targetId: String(postId), reason: "abuse", details: "я".repeat(10_000) }, 400, "не длиннее 1000 символов"],
    ];
    for (const [fields, status, message] of cases) {
      const response = await post(admin, path, fields);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      expect(await response.text()).toContain(message);
    }
    const queue = await page(admin, "/admin/reports");
    // Two reporters so far (the member and the moderator), none of the admin's refused ones.
    expect(queue.html).toMatch(new RegExp(`data-target="post:${postId}"[\\s\\S]*?2<!-- --> <!-- -->участника пожаловались`));
  });
});

describe("POST /admin/reports (deciding the queue)", () => {
  it("only moderators and admins decide; the reporter hears the outcome; a decided entry is refused", async () => {
    // A member of its own (one wall entry per member here: the posting limit) is the member concerned.
    const owner = await member();
    const target = await wallEntry(owner, `Запись для жалобы ${Date.now()}`);
    const reportPath = `/report?type=wall_post&id=${target}`;
    expect((await post(stranger, reportPath, { targetType: "wall_post", targetId: String(target), reason: "abuse" })).status).toBe(302);
    const decide = { intent: `wall_post:${target}`, targetType: "wall_post", targetId: String(target), outcome: "delete" };

    const visit = await post(anon, "/admin/reports", decide);
    expect(visit.status).toBe(302);
    expect(visit.headers.get("Location")).toMatch(/^\/auth\/login/);
    for (const [who, caller] of [
      ["member", stranger],
      ["author", owner],
    ] as const) {
      const refused = await post(caller, "/admin/reports", decide);
      expect(refused.status, who).toBe(403);
    }
    const long = await post(moderator, "/admin/reports", { ...decide, reason: "п".repeat(10_000) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Причина — не длиннее 1000 символов");

    const done = await post(moderator, "/admin/reports", decide);
    expect(done.status).toBe(302);
    const wall = (await (await new Client().fetch(`/api/profile/${owner.id}/wall`)).json()) as { data: { items: { id: number; deleted: boolean }[] } };
    expect(wall.data.items.find((e) => e.id === target)).toMatchObject({ deleted: true });

    const twice = await post(admin, "/admin/reports", decide);
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("Эти жалобы уже рассмотрены");

    const notifications = (await (await stranger.client.fetch("/api/profile/notifications")).json()) as { data: { items: { type: string }[] } };
    expect(notifications.data.items.map((n) => n.type)).toContain("REPORT_HANDLED");
  });

  it("a moderator mutes the author from the card, keeping the entry: it stays, and the next card names the mute and its end", async () => {
    const owner = await member();
    const target = await wallEntry(owner, `Запись для ограничения ${Date.now()}`);
    expect((await post(stranger, `/report?type=wall_post&id=${target}`, { targetType: "wall_post", targetId: String(target), reason: "abuse" })).status).toBe(
      302,
    );
    const card = { intent: `wall_post:${target}`, targetType: "wall_post", targetId: String(target) };
    const done = await post(moderator, "/admin/reports", {
      ...card,
      outcome: "mute",
      reason: "Грубость",
      period: "until",
      until: "2099-05-01T12:00",
      keepItem: "on",
    });
    expect(done.status).toBe(302);
    const wall = (await (await new Client().fetch(`/api/profile/${owner.id}/wall`)).json()) as { data: { items: { id: number; deleted: boolean }[] } };
    expect(wall.data.items.find((e) => e.id === target)).toMatchObject({ deleted: false });
    // New reports' card shows the mute in force with its end (two reporters: it sorts on the first page).
    for (const reporter of [stranger, author]) {
      expect((await post(reporter, `/report?type=wall_post&id=${target}`, { targetType: "wall_post", targetId: String(target), reason: "spam" })).status).toBe(
        302,
      );
    }
    const queue = (await page(moderator, "/admin/reports?perPage=50")).html.replace(/<!-- -->/g, "");
    const shown = new RegExp(`data-target="wall_post:${target}"[\\s\\S]*?data-testid="report-member-sanctions"[\\s\\S]*?Только чтение до 1 мая 2099`);
    expect(queue).toMatch(shown);
  });

  it("an admin dismisses the reports of a profile", async () => {
    const reported = await member();
    expect(
      (await post(stranger, `/report?type=profile&id=${reported.id}`, { targetType: "profile", targetId: String(reported.id), reason: "fraud" })).status,
    ).toBe(302);
    const done = await post(admin, "/admin/reports", {
      intent: `profile:${reported.id}`,
      targetType: "profile",
      targetId: String(reported.id),
      outcome: "dismiss",
    });
    expect(done.status).toBe(302);
    expect((await page(admin, "/admin/reports")).html).not.toContain(`data-target="profile:${reported.id}"`);
  });
});

describe("POST /moderation", () => {
  let postId: number;
  let commentId: number;
  let entryId: number;
  let messageId: number;
  /** The member concerned here: the author of the post, comment, wall entry and message (one post per member: the posting limit). */
  let writer: Member;
  beforeAll(async () => {
    writer = await member();
    postId = await publishPost(writer, "Пост под модерацией");
    commentId = await comment(writer, postId, "Комментарий под модерацией");
    entryId = await wallEntry(writer, `Запись под модерацией ${Date.now()}`);
    messageId = (await postMessage(writer, "group", 1, "Сообщение в общем чате под модерацией")).id;
  });

  it("a visitor signs in first; members, the author included, get 403 not_moderator and change nothing", async () => {
    const fields = { intent: "delete", type: "comment", id: String(commentId), redirectTo: `/post/${postId}` };
    const visit = await post(anon, "/moderation", fields);
    expect(visit.status).toBe(302);
    expect(visit.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(`/post/${postId}`)}`);
    for (const caller of [stranger, writer]) {
      for (const intent of ["delete", "restore", "close", "open", "pin", "unpin", "move"]) {
        const refused = await fetcherPost(caller, "/moderation", { intent, type: "post", id: String(postId), categoryId: "8" });
        expect(refused.status, intent).toBe(403);
        expect(refused.data).toMatchObject({ ok: false, code: "not_moderator", message: "Это действие доступно только модераторам" });
      }
      const plain = await post(caller, "/moderation", fields);
      expect(plain.status).toBe(403);
      expect(await plain.text()).toContain("Это действие доступно только модераторам");
    }
    expect((await page(anon, `/post/${postId}`)).html).toContain("Комментарий под модерацией");
  });

  it("a moderator deletes and restores a comment, a wall entry and a public-chat message; members see «Удалено модератором»", async () => {
    for (const [type, id, where] of [
      ["comment", commentId, `/post/${postId}`],
      ["wall_post", entryId, `/profile/${writer.id}`],
    ] as const) {
      const deleted = await post(moderator, "/moderation", { intent: "delete", type, id: String(id), redirectTo: where });
      expect(deleted.status, type).toBe(302);
      expect(deleted.headers.get("Location")).toBe(where);
      const seen = await page(stranger, where);
      expect(seen.html).toContain("Удалено модератором");
      expect((await page(moderator, where)).html).toContain("Восстановить");
      const again = await fetcherPost(admin, "/moderation", { intent: "delete", type, id: String(id) });
      expect(again.status).toBe(409);
      expect(again.data).toMatchObject({ ok: false, code: "already_deleted", message: "Это уже удалено модератором" });
      expect((await post(admin, "/moderation", { intent: "restore", type, id: String(id), redirectTo: where })).status).toBe(302);
      expect((await page(stranger, where)).html).not.toContain("Удалено модератором");
    }
    const removed = await fetcherPost(moderator, "/moderation", { intent: "delete", type: "message", id: String(messageId) });
    expect(removed).toMatchObject({ status: 200, data: { ok: true, message: "Сообщение удалено" } });
    const restored = await fetcherPost(admin, "/moderation", { intent: "restore", type: "message", id: String(messageId) });
    expect(restored).toMatchObject({ status: 200, data: { ok: true, message: "Сообщение восстановлено" } });
  });

  it("closes and opens comments, moves the post, deletes and restores it", async () => {
    expect((await fetcherPost(moderator, "/moderation", { intent: "close", id: String(postId) })).data).toMatchObject({ ok: true });
    const closed = (await page(stranger, `/post/${postId}`)).html;
    expect(closed).toContain("Модератор закрыл комментарии");
    expect(closed).not.toContain("Ваш комментарий");
    expect(closed).not.toContain("Ответить");
    const refusedComment = await post(stranger, `/post/${postId}/comments`, { intent: "create", body: "А можно ещё вопрос?" });
    expect(refusedComment.status).toBeGreaterThanOrEqual(400);
    expect((await fetcherPost(admin, "/moderation", { intent: "close", id: String(postId) })).data).toMatchObject({ ok: false, code: "already_closed" });
    expect((await fetcherPost(admin, "/moderation", { intent: "open", id: String(postId) })).data).toMatchObject({ ok: true });

    const moved = await fetcherPost(moderator, "/moderation", { intent: "move", id: String(postId), categoryId: "8" });
    expect(moved.data).toMatchObject({ ok: true, message: "Пост перенесён в раздел «Оффтоп»" });
    const unknown = await post(moderator, "/moderation", { intent: "move", id: String(postId), categoryId: "42" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Такого раздела нет");
    expect((await page(stranger, `/post/${postId}`)).html).toContain("Оффтоп");

    const long = await fetcherPost(moderator, "/moderation", { intent: "delete", type: "post", id: String(postId), reason: "x".repeat(10_000) });
    expect(long).toMatchObject({ status: 400, data: { ok: false, code: "invalid_input", message: "Причина — не длиннее 1000 символов" } });
    expect((await page(stranger, `/post/${postId}`)).status).toBe(200);

    const unknownTarget = await fetcherPost(moderator, "/moderation", { intent: "delete", type: "post", id: "999999999" });
    expect(unknownTarget).toMatchObject({ status: 404, data: { ok: false, code: "post_not_found" } });
    const unknownType = await fetcherPost(moderator, "/moderation", { intent: "delete", type: "planet", id: String(postId) });
    expect(unknownType.status).toBe(400);

    expect((await post(moderator, "/moderation", { intent: "delete", type: "post", id: String(postId), redirectTo: `/post/${postId}` })).status).toBe(302);
    const gone = await page(stranger, `/post/${postId}`);
    expect(gone.status).toBe(404);
    expect(gone.html).toContain("Пост удалён модератором");
    expect((await page(moderator, `/post/${postId}`)).html).toContain("Восстановить пост");
    const closeDeleted = await post(admin, "/moderation", { intent: "close", id: String(postId) });
    expect(closeDeleted.status).toBe(409);
    expect(await closeDeleted.text()).toContain("Пост удалён модератором: сначала восстановите его");
    expect((await post(admin, "/moderation", { intent: "restore", type: "post", id: String(postId) })).status).toBe(302);
    expect((await page(stranger, `/post/${postId}`)).status).toBe(200);
  });

  it("pins at most 3 posts: the 4th is refused in Russian until one is unpinned", async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(async (n) => publishPost(await member(), `Закрепить ${n}`)));
    // Whatever an earlier test file pinned, make room for exactly three of ours.
    const home = await page(stranger, "/");
    for (const match of home.html.matchAll(/data-pinned="true"[\s\S]*?href="\/post\/(\d+)"/g)) {
      await fetcherPost(admin, "/moderation", { intent: "unpin", id: match[1]! });
    }
    for (const id of ids.slice(0, 3)) expect((await fetcherPost(moderator, "/moderation", { intent: "pin", id: String(id) })).data).toMatchObject({ ok: true });
    const fourth = await post(moderator, "/moderation", { intent: "pin", id: String(ids[3]) });
    expect(fourth.status).toBe(409);
    expect(await fourth.text()).toContain("На главной уже закреплено 3 поста");
    expect((await fetcherPost(admin, "/moderation", { intent: "unpin", id: String(ids[0]) })).data).toMatchObject({ ok: true });
    expect((await fetcherPost(admin, "/moderation", { intent: "pin", id: String(ids[3]) })).data).toMatchObject({ ok: true });
    const feed = await page(anon, "/");
    const order = [...feed.html.matchAll(/data-testid="post-card"[\s\S]*?href="\/post\/(\d+)"/g)].map((m) => Number(m[1])).slice(0, 3);
    expect(order).toEqual([ids[3], ids[2], ids[1]]);
    for (const id of ids.slice(1)) await fetcherPost(admin, "/moderation", { intent: "unpin", id: String(id) });
  });
});
