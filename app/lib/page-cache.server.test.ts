import { describe, expect, it } from "vitest";
import {
  adsShownIn,
  cutPage,
  fillPage,
  fillPageBytes,
  isStorable,
  PAGE_CACHE_TTL_MS,
  PageCache,
  pageCacheKey,
  pageEtag,
  storedHeaders,
  writeMayChangePublicPages,
  type CachedPage,
} from "./page-cache.server";

const get = (url: string, cookieHeader?: string) => pageCacheKey({ method: "GET", url, cookieHeader, hasAuthorization: false });

describe("pageCacheKey", () => {
  it("keys a visitor's public page by URL and colour scheme", () => {
    expect(get("/")).toBe("|/");
    expect(get("/post/12?comments=2")).toBe("|/post/12?comments=2");
    expect(get("/post/12.data", "csrf=abc; color-scheme=dark")).toBe("dark|/post/12.data");
    expect(get("/_root.data?_routes=routes%2Fhome")).toBe("|/_root.data?_routes=routes%2Fhome");
    for (const path of [
      "/articles",
      "/search?q=велосипед",
      "/profile/3",
      "/leaderboard",
      "/blacklist",
      "/claims/4",
      "/services/guarantor",
      "/api/profile/3/posts?page=2",
    ]) {
      expect(get(path), path).not.toBeNull();
    }
  });

  it("leaves alone members, flash toasts, other methods and private or unknown pages", () => {
    expect(get("/", "csrf=abc; __session=xyz")).toBeNull();
    expect(get("/", "toast=1")).toBeNull();
    expect(pageCacheKey({ method: "GET", url: "/", cookieHeader: undefined, hasAuthorization: true })).toBeNull();
    expect(pageCacheKey({ method: "POST", url: "/", cookieHeader: undefined, hasAuthorization: false })).toBeNull();
    expect(pageCacheKey({ method: "HEAD", url: "/", cookieHeader: undefined, hasAuthorization: false })).toBe("|/");
    for (const path of [
      "/profile",
      "/profile/wallet",
      "/post/1/edit",
      "/admin",
      "/api/posts",
      "/auth/login",
      "/posts/new",
      "/api/profile/posts",
      "/api/profile/3/posts.data",
      "/api/profile/3",
    ]) {
      expect(get(path), path).toBeNull();
    }
  });
});

describe("writeMayChangePublicPages", () => {
  it("keeps stored pages only through the writes no visitor page shows", () => {
    for (const path of [
      "/profile/conversations",
      "/profile/conversations.data",
      "/api/profile/conversation/group/1/messages",
      "/api/profile/conversations/groups",
      "/profile/notifications",
      "/api/profile/notifications",
      "/profile/12/message",
      "/settings/color-scheme",
    ]) {
      expect(writeMayChangePublicPages(path), path).toBe(false);
    }
    for (const path of [
      "/post/5/comments",
      "/posts/new",
      "/profile/settings",
      "/profile/12",
      "/moderation",
      "/api/posts/5/like",
      "/settings/color-scheme/x",
      "/profile/conversations-archive",
    ]) {
      expect(writeMayChangePublicPages(path), path).toBe(true);
    }
  });
});

describe("stored pages", () => {
  const token = "tok.EN+/=";
  const nonce = "n0nce==";
  const body = `<script nonce="${nonce}">x</script><input name="csrf" value="${token}"/>"csrfToken","${token}"<script nonce="${nonce}"></script>`;

  function page(generation = 0): CachedPage {
    return { status: 200, headers: [], ...cutPage(body, token, nonce)!, adIds: [], generation };
  }

  it("carry each reader's token and each response's nonce, and nothing of the first reader's", () => {
    const filled = fillPage(page(), "other-token", "fresh");
    expect(filled).toBe(body.replaceAll(token, "other-token").replaceAll(nonce, "fresh"));
    expect(filled).not.toContain(token);
    expect(fillPage(page(), token, nonce)).toBe(body);
  });

  it("are answered as the same bytes as the filled text, Cyrillic included", () => {
    const russian = `<p>Привет, мир</p>${body}<p>ёлка</p>`;
    const stored: CachedPage = { status: 200, headers: [], ...cutPage(russian, token, nonce)!, adIds: [], generation: 0 };
    const bytes = fillPageBytes(stored, "другой-token", "fresh");
    expect(bytes.toString("utf8")).toBe(fillPage(stored, "другой-token", "fresh"));
    expect(bytes.toString("utf8")).toContain("<p>Привет, мир</p>");
  });

  it("carry a token with «&» in attributes and scripts as the page escaped it, and never the first reader's", () => {
    // remix-utils' tokens draw from an alphabet with «&», which React writes as &amp; in an
    // attribute and React Router as \u0026 in the hydration script: about a third of all tokens.
    const first = "ab&cd.FIRSTsignature0123";
    const rendered = `<input name="csrf" value="ab&amp;cd.FIRSTsignature0123"/><script>enqueue("ab\\u0026cd.FIRSTsignature0123")</script>`;
    const stored = cutPage(rendered, first, "");
    expect(stored).not.toBeNull();
    const filled = fillPage({ status: 200, headers: [], ...stored!, adIds: [], generation: 0 }, "x&y.SECONDsignature4567", "");
    expect(filled).toBe(`<input name="csrf" value="x&amp;y.SECONDsignature4567"/><script>enqueue("x\\u0026y.SECONDsignature4567")</script>`);
    expect(filled).not.toContain("FIRSTsignature");
  });

  it("are not stored when the token shows in a form the cache cannot put another reader's in", () => {
    expect(cutPage(`<a href="/x?t=ab%26cd.FIRSTsignature0123">`, "ab&cd.FIRSTsignature0123", "")).toBeNull();
  });

  it("have an ETag per content and per reader", () => {
    const one = page();
    expect(pageEtag(one, "a")).toBe(pageEtag(page(), "a"));
    expect(pageEtag(one, "a")).not.toBe(pageEtag(one, "b"));
    const changed: CachedPage = { status: 200, headers: [], ...cutPage(body.replace("x", "y"), token, nonce)!, adIds: [], generation: 0 };
    expect(pageEtag(changed, "a")).not.toBe(pageEtag(one, "a"));
  });

  it("are only 200 HTML, single-fetch or JSON answers without cookies", () => {
    expect(isStorable(200, new Headers({ "Content-Type": "text/html; charset=utf-8" }))).toBe(true);
    expect(isStorable(200, new Headers({ "Content-Type": "text/x-script" }))).toBe(true);
    expect(isStorable(404, new Headers({ "Content-Type": "text/html" }))).toBe(false);
    expect(isStorable(200, new Headers({ "Content-Type": "application/json; charset=utf-8" }))).toBe(true);
    expect(isStorable(200, new Headers({ "Content-Type": "text/plain" }))).toBe(false);
    expect(isStorable(200, new Headers({ "Content-Type": "text/html", "Cache-Control": "private" }))).toBe(false);
    expect(isStorable(200, new Headers({ "Content-Type": "text/html", "Set-Cookie": "toast=; Max-Age=0" }))).toBe(false);
    expect(storedHeaders(new Headers({ "Content-Type": "text/html", ETag: '"x"', "Set-Cookie": "a=b", Link: "</a.css>; rel=preload" }))).toEqual([
      ["content-type", "text/html"],
      ["link", "</a.css>; rel=preload"],
    ]);
  });

  it("are forgotten on a write, and a render that overlapped the write is not stored", () => {
    const cache = new PageCache();
    const before = cache.generation;
    cache.store("|/", page(before));
    expect(cache.get("|/")).toBeDefined();
    cache.invalidate();
    expect(cache.get("|/")).toBeUndefined();
    cache.store("|/", page(before));
    expect(cache.get("|/")).toBeUndefined();
    cache.store("|/", page(cache.generation));
    expect(cache.get("|/")).toBeDefined();
  });

  it("once expired, are answered stale only while a render of them is under way, and never after a write", () => {
    let now = 1_000;
    const cache = new PageCache({ clock: { now: () => now } });
    const stored = page(cache.generation);
    cache.store("|/", stored);
    now += PAGE_CACHE_TTL_MS + 1;
    expect(cache.get("|/")).toBeUndefined();
    expect(cache.staleWhileRendering("|/")).toBeUndefined();
    const done = cache.beginRender("|/");
    expect(cache.renderUnderWay("|/")).toBeDefined();
    expect(cache.staleWhileRendering("|/")).toBe(stored);
    cache.invalidate();
    expect(cache.staleWhileRendering("|/")).toBeUndefined();
    done();
    expect(cache.renderUnderWay("|/")).toBeUndefined();
  });
});

describe("adsShownIn", () => {
  it("finds each ad a page links to once, in the HTML and in single-fetch data alike", () => {
    expect(adsShownIn('<a href="/ads/3/click">…</a><a href="/ads/12/click">…</a><a href="/ads/3/click">')).toEqual([3, 12]);
    expect(adsShownIn('"href","/ads/7/click"')).toEqual([7]);
    expect(adsShownIn("<p>Реклама: /ads</p>")).toEqual([]);
  });
});
