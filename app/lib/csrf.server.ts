/**
 * CSRF protection with remix-utils: a signed token in the `csrf` cookie that every form
 * repeats. Page forms send it as `csrf` (AuthenticityTokenInput); the Auth.js-style calls
 * of docs/product/accounts.md#authjs-style-calls send the same token as `csrfToken`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { parse as parseCookieHeader, serialize as serializeCookie } from "cookie";
import { createCookie } from "react-router";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { getConfig } from "./config.server";
import { Forbidden } from "./errors";

/**
 * remix-utils' CSRF with one change: a new token's random part comes from one randomBytes call
 * (base64url, the same 32 bytes of entropy) where remix-utils' randomString asks the system for
 * every character apart. That was a sixth of the CPU of answering a visitor from the page cache
 * (bench/http, issue 12), since every first visit gets a token. Signing and checking are the
 * library's own.
 */
class CsrfTokens extends CSRF {
  override generate(bytes = 32): string {
    const token = randomBytes(bytes).toString("base64url");
    // The library's own signature (a private method in its types), so its validate() accepts it.
    return `${token}.${(this as unknown as { sign(value: string): string }).sign(token)}`;
  }
}

/** The cookie holding the token. */
const CSRF_COOKIE = "csrf";

let instances: { form: CsrfTokens; authJs: CsrfTokens } | undefined;

function cookieOptions() {
  return { path: "/", httpOnly: true, sameSite: "lax", secure: getConfig().publicUrl.startsWith("https://") } as const;
}

function csrf() {
  if (!instances) {
    const config = getConfig();
    const cookie = createCookie(CSRF_COOKIE, { ...cookieOptions(), secrets: [config.sessionSecret] });
    instances = {
      form: new CsrfTokens({ cookie, formDataKey: "csrf", secret: config.sessionSecret }),
      authJs: new CsrfTokens({ cookie, formDataKey: "csrfToken", secret: config.sessionSecret }),
    };
  }
  return instances;
}

/** The request's CSRF token and, when it had none yet, the Set-Cookie header that stores it (csrfTokenForCookies). */
export function commitCsrfToken(request: Request): Promise<readonly [string, string | null]> {
  return csrfTokenForCookies(request.headers.get("Cookie") ?? undefined);
}

/**
 * The CSRF token held by a `Cookie` header and, when it holds none (or an invalid one), a new
 * token with the Set-Cookie header value that stores it: for every page, the root loader's and
 * the visitor page cache's (app/lib/page-cache.server.ts). Read with node:crypto's HMAC
 * (csrfTokenForCookiesNow) where the library imports a WebCrypto key each time (1 % of a member's
 * post page, issue 12); a cookie that way does not read goes the library's way, which replaces it.
 */
export async function csrfTokenForCookies(cookieHeader: string | undefined): Promise<readonly [string, string | null]> {
  return csrfTokenForCookiesNow(cookieHeader) ?? libraryCsrfToken(cookieHeader);
}

/** The library's own reading of a `Cookie` header's CSRF token (remix-utils); tests check ours against it. */
export function libraryCsrfToken(cookieHeader: string | undefined): Promise<readonly [string, string | null]> {
  return csrf().form.commitToken(new Headers(cookieHeader ? { Cookie: cookieHeader } : {}));
}

/**
 * The synchronous reading behind csrfTokenForCookies, also for answering a visitor from the page
 * cache before Express (server/index.js), which does not await: node:crypto's HMAC where react-router's cookie imports a WebCrypto
 * key on every signature (a sixth of such an answer's CPU, issue 12). Writes and reads the very
 * cookie react-router's createCookie does: the value is the token as JSON in base64, signed
 * `value.base64(HMAC-SHA256(SESSION_SECRET, value))` without padding, URL-encoded by the `cookie`
 * package (csrf.server.test.ts checks both ways against the library's own cookie).
 * Returns null for a `csrf` cookie it does not read as one of ours (tampered, or another
 * secret's); the caller then takes the library's way (libraryCsrfToken), which replaces it.
 */
export function csrfTokenForCookiesNow(cookieHeader: string | undefined): readonly [string, string | null] | null {
  const secret = getConfig().sessionSecret;
  const stored = cookieHeader ? parseCookieHeader(cookieHeader)[CSRF_COOKIE] : undefined;
  // An empty cookie is none: the library would read it as an empty token and set it again, for good.
  if (stored === undefined || stored === "") {
    const token = csrf().form.generate();
    const value = Buffer.from(JSON.stringify(token)).toString("base64");
    return [token, serializeCookie(CSRF_COOKIE, `${value}.${cookieSignature(value, secret)}`, cookieOptions())];
  }
  const dot = stored.lastIndexOf(".");
  if (dot < 1) return null;
  const value = stored.slice(0, dot);
  const given = Buffer.from(stored.slice(dot + 1));
  const expected = Buffer.from(cookieSignature(value, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const json = Buffer.from(value, "base64").toString("latin1");
  // Our tokens are base64url, a «.» and the signature (which may end in «=»); anything else goes the library's way.
  if (!/^"[\w.=-]+"$/.test(json)) return null;
  return [JSON.parse(json) as string, null];
}

/** react-router's cookie signature of `value`: HMAC-SHA256 in base64 without padding. */
function cookieSignature(value: string, secret: string): string {
  return createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, "");
}

/**
 * Checks the token a page form posted as `csrf` (the body is read from a clone).
 * Throws Forbidden (`csrf_invalid`, 403) when it is missing or does not match the cookie.
 */
export async function validateCsrf(request: Request): Promise<void> {
  await check(() => csrf().form.validate(request));
}

/**
 * For JSON calls: checks the token sent in the `X-CSRF-Token` header against the `csrf` cookie,
 * or, without that header, the `csrf` form field as validateCsrf does.
 * Throws Forbidden (`csrf_invalid`, 403) when it is missing or does not match the cookie.
 */
export async function validateCsrfHeaderOrForm(request: Request): Promise<void> {
  const header = request.headers.get("X-CSRF-Token");
  let fields: FormData;
  if (header !== null) {
    fields = new FormData();
    fields.set("csrf", header);
  } else {
    try {
      fields = await request.clone().formData();
    } catch {
      // A JSON body without the header carries no token.
      fields = new FormData();
    }
  }
  await check(() => csrf().form.validate(fields, request.headers));
}

/** Like validateCsrf, for the Auth.js-style field `csrfToken`; returns false instead of throwing. */
export async function isValidAuthJsCsrf(request: Request): Promise<boolean> {
  try {
    await csrf().authJs.validate(request);
    return true;
  } catch (error) {
    if (error instanceof CSRFError) return false;
    throw error;
  }
}

async function check(validate: () => Promise<void>): Promise<void> {
  try {
    await validate();
  } catch (error) {
    if (error instanceof CSRFError) {
      throw new Forbidden("Форма устарела. Обновите страницу и попробуйте ещё раз.", "csrf_invalid");
    }
    throw error;
  }
}
