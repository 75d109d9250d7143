import { describe, expect, it } from "vitest";
import { commitCsrfToken, csrfTokenForCookies, csrfTokenForCookiesNow, libraryCsrfToken, validateCsrf } from "./csrf.server";

/** A form post carrying `cookie` and the `csrf` field `field`. */
function post(cookie: string, field: string): Request {
  const body = new URLSearchParams({ csrf: field });
  return new Request("http://localhost/posts/new", { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body });
}

describe("CSRF tokens", () => {
  it("gives a new reader a token of their own and a cookie that a form carrying it passes with", async () => {
    const [token, setCookie] = await csrfTokenForCookies(undefined);
    const [other] = await csrfTokenForCookies(undefined);
    expect(token).not.toBe(other);
    expect(token).toMatch(/^[\w-]{43}\.[\w=-]+$/);
    const cookie = setCookie!.split(";")[0]!;
    expect(await csrfTokenForCookies(cookie)).toEqual([token, null]);
    await expect(validateCsrf(post(cookie, token))).resolves.toBeUndefined();
  });

  it("refuses a form carrying another reader's token, or none (403 csrf_invalid)", async () => {
    const [token, setCookie] = await csrfTokenForCookies(undefined);
    const cookie = setCookie!.split(";")[0]!;
    const [other] = await csrfTokenForCookies(undefined);
    await expect(validateCsrf(post(cookie, other))).rejects.toMatchObject({ status: 403, code: "csrf_invalid" });
    await expect(validateCsrf(post(cookie, ""))).rejects.toMatchObject({ status: 403, code: "csrf_invalid" });
    expect(token).not.toBe(other);
  });

  it("issues and reads, without awaiting, the very cookie the library does (the page cache's way)", async () => {
    const [token, setCookie] = csrfTokenForCookiesNow(undefined)!;
    expect(setCookie).toMatch(/^csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie!.split(";")[0]!;
    // The library reads ours, and a form carrying the token passes.
    expect(await libraryCsrfToken(cookie)).toEqual([token, null]);
    await expect(validateCsrf(post(cookie, token))).resolves.toBeUndefined();
    // Ours reads the library's, beside other cookies.
    const [libraryToken, librarySetCookie] = await libraryCsrfToken(undefined);
    expect(csrfTokenForCookiesNow(`color-scheme=dark; ${librarySetCookie!.split(";")[0]!}`)).toEqual([libraryToken, null]);
  });

  it("leaves a tampered cookie to the library, which gives a new token in its place", async () => {
    const cookie = csrfTokenForCookiesNow(undefined)![1]!.split(";")[0]!;
    const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
    const tampered = `${name}=${value.startsWith("I") ? "J" : "I"}${value.slice(1)}`;
    expect(csrfTokenForCookiesNow(tampered)).toBeNull();
    expect(csrfTokenForCookiesNow(`${name}=no-signature`)).toBeNull();
    const [, replacement] = await libraryCsrfToken(tampered);
    expect(replacement).toMatch(/^csrf=/);
  });

  it("gives a page the token its cookie holds, with no new cookie, and a new token for a tampered one", async () => {
    const page = (cookie?: string) => new Request("http://localhost/post/1", { headers: cookie ? { Cookie: cookie } : {} });
    const [token, setCookie] = await commitCsrfToken(page());
    const cookie = setCookie!.split(";")[0]!;
    expect(await commitCsrfToken(page(`theme=dark; ${cookie}`))).toEqual([token, null]);
    const [renewed, replacement] = await commitCsrfToken(page(`${cookie.slice(0, -2)}xx`));
    expect(renewed).not.toBe(token);
    await expect(validateCsrf(post(replacement!.split(";")[0]!, renewed))).resolves.toBeUndefined();
  });

  it("gives a reader whose csrf cookie is empty a real token and cookie, so their forms pass", async () => {
    const page = new Request("http://localhost/post/1", { headers: { Cookie: "csrf=" } });
    const [token, setCookie] = await commitCsrfToken(page);
    expect(token).toMatch(/^[\w-]{43}\.[\w=-]+$/);
    await expect(validateCsrf(post(setCookie!.split(";")[0]!, token))).resolves.toBeUndefined();
  });
});
