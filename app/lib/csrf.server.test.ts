import { describe, expect, it } from "vitest";
import { csrfTokenForCookies, validateCsrf } from "./csrf.server";

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
});
