import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";

async function publish(client: Client, title: string) {
  const page = await (await client.fetch("/posts/new")).text();
  const csrf = csrfFromHtml(page);
  return client.postForm("/posts/new", { csrf, title, body: "## Тест\n\nТекст поста", categoryId: "7", kind: "post" });
}

describe("profile calls (docs/product/routes.md#json-calls)", () => {
  it("GET /api/profile/{id} shows a member without private fields; 404 for unknown ids", async () => {
    const client = new Client();
    const { username, email } = await client.register();
    const me = (await (await client.fetch("/api/auth/me")).json()).user;
    const visitor = new Client();
    const response = await visitor.fetch(`/api/profile/${me.id}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ success: true, data: { id: me.id, username, postCount: 0 } });
    expect(JSON.stringify(body)).not.toContain(email);
    expect(JSON.stringify(body)).not.toContain(me.apiToken);
    for (const bad of ["999999", "abc", "-1"]) {
      const missing = await visitor.fetch(`/api/profile/${bad}`);
      expect(missing.status).toBe(404);
      expect((await missing.json()).errors.code).toBe("profile_not_found");
    }
  });

  it("lists a member's posts for anyone and the own list for the owner only", async () => {
    const author = new Client();
    await author.register();
    const me = (await (await author.fetch("/api/auth/me")).json()).user;
    expect((await publish(author, "Мой первый пост")).status).toBe(302);

    const visitor = new Client();
    const theirs = await (await visitor.fetch(`/api/profile/${me.id}/posts?page=1&perPage=5`)).json();
    expect(theirs.data).toMatchObject({ page: 1, perPage: 5, total: 1 });
    expect(theirs.data.items[0]).toMatchObject({ title: "Мой первый пост", author: { id: me.id } });

    const own = await author.fetch("/api/profile/posts");
    expect((await own.json()).data.items.map((p: { title: string }) => p.title)).toEqual(["Мой первый пост"]);

    const anonymous = await visitor.fetch("/api/profile/posts");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).errors.code).toBe("unauthorized");

    const other = new Client();
    await other.register();
    expect((await (await other.fetch("/api/profile/posts")).json()).data.total).toBe(0);
  });

  it("clamps perPage to 50 and survives malformed pages", async () => {
    const body = await (await new Client().fetch("/api/profile/1/posts?page=abc&perPage=1000")).json();
    expect(body.data).toMatchObject({ page: 1, perPage: 50 });
  });
});

describe("posts through forms", () => {
  it("only the author can edit: others get 403, visitors go to sign-in", async () => {
    const author = new Client();
    await author.register();
    const created = await publish(author, "Пост для правки");
    const postPath = created.headers.get("Location")!;
    expect(postPath).toMatch(/^\/post\/\d+$/);
    expect((await author.fetch(`${postPath}/edit`)).status).toBe(200);

    const stranger = new Client();
    await stranger.register();
    expect((await stranger.fetch(`${postPath}/edit`)).status).toBe(403);
    const page = await (await stranger.fetch("/posts/new")).text();
    const csrf = csrfFromHtml(page);
    const forged = await stranger.postForm(`${postPath}/edit`, { csrf, title: "Взлом", body: "x", categoryId: "1", kind: "post" });
    expect(forged.status).toBe(403);
    expect(await author.fetch(postPath).then((r) => r.text())).toContain("Пост для правки");

    expect((await new Client().fetch(`${postPath}/edit`)).headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(`${postPath}/edit`)}`);
  });

  it("a form without the CSRF token changes nothing", async () => {
    const author = new Client();
    await author.register();
    const response = await author.postForm("/posts/new", { title: "Без токена", body: "x", categoryId: "1", kind: "post" });
    expect(response.status).toBe(403);
    expect((await (await author.fetch("/api/profile/posts")).json()).data.total).toBe(0);
  });

  it("a second post within 30 seconds answers 429 with a Russian message and keeps the first", async () => {
    const author = new Client();
    await author.register();
    expect((await publish(author, "Первый")).status).toBe(302);
    const second = await publish(author, "Второй");
    expect(second.status).toBe(429);
    expect(await second.text()).toContain("не чаще одного поста в 30 секунд");
    expect((await (await author.fetch("/api/profile/posts")).json()).data.total).toBe(1);
  });
});
