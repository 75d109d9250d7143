/**
 * CSRF protection with remix-utils: a signed token in the `csrf` cookie that every form
 * repeats. Page forms send it as `csrf` (AuthenticityTokenInput); the Auth.js-style calls
 * of docs/product/accounts.md#authjs-style-calls send the same token as `csrfToken`.
 */
import { randomBytes } from "node:crypto";
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

let instances: { form: CSRF; authJs: CSRF } | undefined;

function csrf() {
  if (!instances) {
    const config = getConfig();
    const cookie = createCookie("csrf", {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: config.publicUrl.startsWith("https://"),
      secrets: [config.sessionSecret],
    });
    instances = {
      form: new CsrfTokens({ cookie, formDataKey: "csrf", secret: config.sessionSecret }),
      authJs: new CsrfTokens({ cookie, formDataKey: "csrfToken", secret: config.sessionSecret }),
    };
  }
  return instances;
}

/** The request's CSRF token and, when it had none yet, the Set-Cookie header that stores it. */
export function commitCsrfToken(request: Request): Promise<readonly [string, string | null]> {
  return csrf().form.commitToken(request);
}

/**
 * The CSRF token held by a `Cookie` header and, when it holds none (or an invalid one), a new
 * token with the Set-Cookie header value that stores it. For the visitor page cache
 * (app/lib/page-cache.server.ts), which answers before any loader runs.
 */
export function csrfTokenForCookies(cookieHeader: string | undefined): Promise<readonly [string, string | null]> {
  return csrf().form.commitToken(new Headers(cookieHeader ? { Cookie: cookieHeader } : {}));
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
