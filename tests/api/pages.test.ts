import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml } from "./client";

describe("route guards (docs/product/routes.md#access-and-guards)", () => {
  it.each(["/profile", "/profile/posts", "/posts/new", "/profile/wallet", "/profile/conversations?group=3", "/services/guarantor"])(
    "%s sends a visitor to the login page with the full path",
    async (path) => {
      const response = await new Client().fetch(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent(path)}`);
    },
  );

  it.each(["/auth/login", "/auth/register", "/auth/password/forgot"])("%s sends a signed-in member to /profile", async (path) => {
    const client = new Client();
    await client.register();
    const response = await client.fetch(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/profile");
  });

  it.each(["/account", "/account/settings", "/account/anything/else?x=1"])(
    "%s sends a visitor to / (docs/product/routes.md#access-and-guards)",
    async (path) => {
      const response = await new Client().fetch(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    },
  );

  it("/account paths send a signed-in member to the same place under /profile", async () => {
    const client = new Client();
    await client.register();
    for (const [path, target] of [
      ["/account", "/profile"],
      ["/account/settings", "/profile/settings"],
      ["/account/wallet?tab=1", "/profile/wallet?tab=1"],
    ]) {
      const response = await client.fetch(path!);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(target);
    }
  });

  it.each(["/", "/articles", "/faq", "/post/1", "/profile/1", "/auth/login", "/auth/register", "/posts/new/preview"])(
    "%s is open to visitors",
    async (path) => {
      expect((await new Client().fetch(path)).status).toBe(200);
    },
  );
});

describe("errors", () => {
  it("an unknown path answers 404 «Page not found: {path}» on the error page", async () => {
    const response = await new Client().fetch("/no/such/page");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found: /no/such/page");
    expect(html).toContain("Ошибка");
    expect(html).toContain("На главную");
  });

  it("an unknown post answers 404, a malformed id too", async () => {
    expect((await new Client().fetch("/post/99999999")).status).toBe(404);
    expect((await new Client().fetch("/post/abc")).status).toBe(404);
  });

  it("signing out through the page form without its CSRF token answers 403 and keeps the session", async () => {
    const client = new Client();
    await client.register();
    const response = await client.postForm("/auth/logout", {});
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Форма устарела");
    expect((await client.fetch("/api/auth/me")).status).toBe(200);
  });

  it("a redirect target with a control character never leaves the site", async () => {
    const client = new Client();
    const { email, password } = await new Client().register();
    const page = await (await client.fetch("/auth/login")).text();
    const csrf = csrfFromHtml(page);
    const response = await client.postForm("/auth/login", { csrf, email, password, redirect: "/\t/evil.example" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });

  it("refuses a body over 1 MiB with 413 and a page form with a body that is not a form with 400", async () => {
    const client = new Client();
    const big = await client.fetch("/posts/new/preview", { method: "POST", body: new URLSearchParams({ body: "я".repeat(400_000) }) });
    expect(big.status).toBe(413);
    const json = await client.fetch("/auth/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(json.status).toBe(400);
  });

  it.each(["/likes", "/bookmarks", "/profile/1/wall", "/profile/1/follow", "/profile/1/block", "/post/1/comments"])(
    "a signed-in member posting a body that is not a form to %s gets 400, not 500",
    async (path) => {
      const client = new Client();
      await client.register();
      const response = await client.fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(response.status).toBe(400);
    },
  );

  it("a profile id beyond the integer range is simply not found", async () => {
    expect((await new Client().fetch("/profile/3000000000")).status).toBe(404);
    expect((await new Client().fetch("/api/profile/3000000000")).status).toBe(404);
  });

  it("an unknown /api path answers JSON 404", async () => {
    const response = await new Client().fetch("/api/nothing/here");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, errors: { code: "not_found" } });
  });
});

describe("server", () => {
  it("sends security headers and page titles «Страница | Сходка»", async () => {
    const response = await new Client().fetch("/");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors");
    expect(await response.text()).toContain("<title>Главная | Сходка</title>");
  });

  it("answers which build it runs at /api/build, never cached, the same build the pages load", async () => {
    const client = new Client();
    const response = await client.fetch("/api/build");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const { version } = (await response.json()) as { version: string };
    expect(version).toMatch(/^\w+$/);
    const html = await (await client.fetch("/")).text();
    expect(html).toContain(`/assets/manifest-${version}.js`);
  });

  it("caches hashed assets for a year", async () => {
    const client = new Client();
    const html = await (await client.fetch("/")).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const response = await client.fetch(asset!);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("max-age=31536000");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
  });

  it("compresses pages for clients that accept gzip", async () => {
    const response = await new Client().fetch("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
  });

  it("gzips a member's streamed page as a whole, not flushed chunk by chunk (about a third of the bytes)", async () => {
    const client = new Client();
    await client.signIn("demo@shodka.local", "demo12345");
    const answer = await client.rawGet("/", { "Accept-Encoding": "gzip" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("gzip");
    const html = gunzipSync(answer.body);
    expect(html.toString()).toContain("Выйти");
    // Flushing the compressor after each 4 KB that React writes sent 2.5 times what gzip needs.
    expect(answer.body.byteLength).toBeLessThan(gzipSync(html).byteLength * 1.2);
  });

  it("serves the demo community: the demo member, the admin background and posts in all nine categories", async () => {
    const client = new Client();
    const background = await (await client.fetch("/api/settings/mainPageBackground")).json();
    expect(background.data.value).toMatch(/^\/images\//);
    for (let category = 1; category <= 9; category++) {
      const html = await (await client.fetch(`/?category=${category}`)).text();
      expect(html.match(/data-testid="post-card"/g)?.length).toBe(10);
    }
    const signIn = await client.signIn("demo@shodka.local", "demo12345");
    expect(signIn.status).toBe(200);
  });
});
