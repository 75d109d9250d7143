/**
 * The post editor's endpoints and deleting one's own post over HTTP (docs/product/content.md#posts,
 * #post-editor): who may open and post /post/{id}/delete (visitor, another member, a moderator,
 * the author), POST /api/uploads/images and POST /api/posts/preview.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "./client";
import { member, type Member as NewMember } from "./members";

/** A signed-in caller: a new member (./members) or a demo account, which has no username here. */
type Member = Pick<NewMember, "client" | "id" | "csrf">;

async function demo(email: string, password: string): Promise<Member> {
  const client = new Client();
  expect((await client.signIn(email, password)).status).toBeLessThan(400);
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
  return { client, id: me.id, csrf: csrfFromHtml(await (await client.fetch(`/profile/${me.id}`)).text()) };
}

async function publish(author: Member, title: string): Promise<number> {
  const created = await author.client.postForm("/posts/new", { csrf: author.csrf, title, body: "Текст поста", categoryId: "7", kind: "post" });
  expect(created.status).toBe(302);
  return Number(created.headers.get("Location")!.split("/").pop());
}

const deletePost = (who: Member, id: number) => who.client.postForm(`/post/${id}/delete`, { csrf: who.csrf });

let other: Member;
let moderator: Member;
beforeAll(async () => {
  [other, moderator] = await Promise.all([member(), demo("moderator@shodka.local", "moder12345")]);
});

describe("a post's page", () => {
  it("describes itself with the start of its text, cut at 160 characters, and the edited text after an edit", async () => {
    const author = await member();
    const body = `## Продам аккаунт\n\n**Состояние** отличное, ${"с историей и отзывами, ".repeat(12)}`;
    const created = await author.client.postForm("/posts/new", { csrf: author.csrf, title: "Описание поста", body, categoryId: "7", kind: "post" });
    expect(created.status).toBe(302);
    const path = created.headers.get("Location")!;
    const description = async () => decodeHtml(/<meta name="description" content="([^"]*)"/.exec(await (await new Client().fetch(path)).text())?.[1] ?? "");
    const shown = await description();
    expect(shown.startsWith("Продам аккаунт: Состояние отличное, с историей и отзывами,")).toBe(true);
    expect(shown).toHaveLength(160);
    expect(shown.endsWith("…")).toBe(true);

    const edited = await author.client.postForm(`${path}/edit`, {
      csrf: author.csrf,
      title: "Описание поста",
      body: "Уже продан.",
      categoryId: "7",
      kind: "post",
    });
    expect(edited.status).toBe(302);
    expect(await description()).toBe("Уже продан.");
  });
});

describe("/post/{id}/delete", () => {
  it("only the author may delete: a visitor signs in first, others get 403 not_post_author, the author deletes", async () => {
    const author = await member();
    const id = await publish(author, "Пост, который удалит автор");

    const visitor = new Client();
    const asked = await visitor.fetch(`/post/${id}/delete`);
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toMatch(/^\/auth\/login\?redirect=/);

    for (const who of [other, moderator]) {
      const page = await who.client.fetch(`/post/${id}/delete`);
      expect(page.status).toBe(403);
      expect(decodeHtml(await page.text())).toContain("Удалить пост может только его автор");
      expect((await deletePost(who, id)).status).toBe(403);
    }
    expect((await new Client().fetch(`/post/${id}`)).status).toBe(200);

    const confirm = await author.client.fetch(`/post/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect(decodeHtml(await confirm.text())).toContain("Удалить пост «Пост, который удалит автор»?");
    expect((await author.client.postForm(`/post/${id}/delete`, {})).status).toBe(403);
    const deleted = await deletePost(author, id);
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/profile/posts");

    const read = await new Client().fetch(`/post/${id}`);
    expect(read.status).toBe(404);
    expect(decodeHtml(await read.text())).toContain("Пост удалён автором");
    expect((await deletePost(author, id)).status).toBe(404);
  });

  it("an unknown post is 404 for its would-be author", async () => {
    expect((await other.client.fetch("/post/999999999/delete")).status).toBe(404);
    expect((await deletePost(other, 999999999)).status).toBe(404);
  });

  it("a moderator cannot restore a post its author deleted (409 deleted_by_author)", async () => {
    const author = await member();
    const id = await publish(author, "Удалённый автором пост");
    expect((await deletePost(author, id)).status).toBe(302);
    const restore = await moderator.client.postForm("/moderation.data", {
      csrf: moderator.csrf,
      via: "fetcher",
      intent: "restore",
      type: "post",
      id: String(id),
    });
    expect(restore.status).toBe(409);
  });
});

describe("POST /api/uploads/images and /api/posts/preview", () => {
  const send = (who: Client, file: Blob, csrf: string | null) => {
    const body = new FormData();
    body.set("file", file, "picture.png");
    return who.fetch("/api/uploads/images", { method: "POST", body, headers: csrf ? { "X-CSRF-Token": csrf } : {} });
  };

  it("a member uploads a picture and gets a URL the image endpoint serves; refusals carry stable codes", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#2e86de" } })
      .png()
      .toBuffer();
    const anonymous = await send(new Client(), new Blob([png], { type: "image/png" }), null);
    expect(anonymous.status).toBe(401);
    expect((await send(other.client, new Blob([png], { type: "image/png" }), null)).status).toBe(403);

    const csrf = await other.client.csrfToken();
    const uploaded = await send(other.client, new Blob([png], { type: "image/png" }), csrf);
    expect(uploaded.status).toBe(201);
    const { data } = (await uploaded.json()) as { data: { url: string } };
    expect(data.url).toMatch(new RegExp(`^/uploads/posts/${other.id}/[0-9a-f]{24}\\.webp$`));
    const served = await new Client().fetch(`/api/image?url=${encodeURIComponent(data.url)}&w=320`);
    expect(served.status).toBe(200);

    const text = await send(other.client, new Blob(["не картинка"], { type: "image/png" }), csrf);
    expect(text.status).toBe(400);
    expect(((await text.json()) as { errors: { code: string } }).errors.code).toBe("image_unsupported_type");
    const empty = await send(other.client, new Blob([], { type: "image/png" }), csrf);
    expect(((await empty.json()) as { errors: { code: string } }).errors.code).toBe("image_empty");
    const huge = await send(other.client, new Blob([new Uint8Array(10 * 1024 * 1024 + 200 * 1024)], { type: "image/png" }), csrf);
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { errors: { code: string; message: string } }).errors.message).toBe("Файл слишком большой: не больше 10 МБ.");
  });

  it("the post form without JavaScript publishes an attached picture at the end of the text; over 11 MB is 413", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#10ac84" } })
      .png()
      .toBuffer();
    const form = new FormData();
    for (const [name, value] of Object.entries({ csrf: other.csrf, title: "Пост с вложением", body: "Смотрите", categoryId: "7", kind: "post" }))
      form.set(name, value);
    form.set("image", new Blob([png], { type: "image/png" }), "photo.png");
    const created = await other.client.fetch("/posts/new", { method: "POST", body: form });
    expect(created.status).toBe(302);
    const html = decodeHtml(await (await new Client().fetch(created.headers.get("Location")!)).text());
    expect(html).toMatch(/<p>Смотрите<\/p>\s*<p><img [^>]*src="\/api\/image\?url=%2Fuploads%2Fposts%2F/);

    const huge = new FormData();
    huge.set("csrf", other.csrf);
    huge.set("image", new Blob([new Uint8Array(11 * 1024 * 1024 + 100 * 1024)]), "huge.png");
    expect((await other.client.fetch("/posts/new", { method: "POST", body: huge })).status).toBe(413);
  });

  it("the preview renders and sanitises as the published post does, mentions included", async () => {
    const csrf = await other.client.csrfToken();
    const body = new FormData();
    body.set("body", "**жирный** <script>alert(1)</script> @admin");
    const preview = await other.client.fetch("/api/posts/preview", { method: "POST", body, headers: { "X-CSRF-Token": csrf } });
    expect(preview.status).toBe(200);
    const { data } = (await preview.json()) as { data: { html: string } };
    expect(data.html).toContain("<strong>жирный</strong>");
    expect(data.html).not.toContain("<script");
    expect(data.html).toMatch(/<a [^>]*href="\/profile\/\d+"[^>]*>@admin<\/a>/);
    expect((await new Client().fetch("/api/posts/preview", { method: "POST", body, headers: { "X-CSRF-Token": csrf } })).status).toBe(401);
  });
});
