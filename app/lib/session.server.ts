/**
 * Sessions live in the `sessions` table; the httpOnly SameSite=Lax cookie carries only the
 * session id, so deleting a row revokes that sign-in everywhere (issue 2, docs/product/accounts.md#sessions).
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { createCookie, createCookieSessionStorage, redirect } from "react-router";
import type { Db } from "~/db/client.server";
import { sessions, signInEvents, users } from "~/db/schema";
import { assertMaySignIn } from "~/domain/moderation/sanctions.server";
import type { UserRow } from "~/domain/users/users.server";
import { getConfig } from "./config.server";
import { telegramHeaderSession } from "./telegram/members.server";

/** How long a sign-in lasts: 30 days, in ms. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per member, in ms. */
const LAST_SEEN_WRITE_INTERVAL_MS = 60 * 1000;

type CookieData = { sessionId?: string };

let storage: ReturnType<typeof createCookieSessionStorage<CookieData>> | undefined;

function authStorage() {
  const config = getConfig();
  storage ??= createCookieSessionStorage<CookieData>({
    cookie: createCookie("__session", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.publicUrl.startsWith("https://"),
      secrets: [config.sessionSecret],
      maxAge: SESSION_TTL_MS / 1000,
    }),
  });
  return storage;
}

/** Reads the session id from the request's cookie, or undefined. */
export async function getSessionId(request: Request): Promise<string | undefined> {
  const session = await authStorage().getSession(request.headers.get("Cookie"));
  return session.get("sessionId");
}

/** The member signed in on this request, or null; see getCurrentSession. */
export async function getSessionUser(db: Db, request: Request): Promise<UserRow | null> {
  return (await getCurrentSession(db, request))?.user ?? null;
}

/**
 * The request's session and its member, or null (no cookie, unknown, expired or revoked
 * session). Without a session cookie, an `Authorization: tma <initData>` header signs in the
 * linked member (webviews refusing cookies, issue 6; telegram/members.server.ts).
 * Marks the member as seen, at most once a minute.
 */
export function getCurrentSession(db: Db, request: Request): Promise<{ user: UserRow; expiresAt: Date } | null> {
  // The root loader and the page's loader both ask for the member of one request: look it up once.
  let pending = sessionsByRequest.get(request);
  if (!pending) {
    pending = lookUpSession(db, request);
    sessionsByRequest.set(request, pending);
  }
  return pending;
}

const sessionsByRequest = new WeakMap<Request, Promise<{ user: UserRow; expiresAt: Date } | null>>();

async function lookUpSession(db: Db, request: Request): Promise<{ user: UserRow; expiresAt: Date } | null> {
  const sessionId = await getSessionId(request);
  const [cookieRow] = sessionId
    ? await db
        .select({ user: users, expiresAt: sessions.expiresAt })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, new Date())))
        .limit(1)
    : [];
  const row = cookieRow ?? (await telegramHeaderSession(db, request));
  if (!row) return null;
  const now = Date.now();
  if (!row.user.lastSeenAt || now - row.user.lastSeenAt.getTime() > LAST_SEEN_WRITE_INTERVAL_MS) {
    await db
      .update(users)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(users.id, row.user.id));
  }
  return row;
}

/** How a session signed in, kept on the session and in the sign-in history (issue 6 "Sessions"). */
export type SignInMethod = "password" | "telegram" | "email_link";

/**
 * Creates a session row for the member, records the sign-in in sign_in_events (method, IP,
 * user agent; the one place every sign-in method goes through), and returns the Set-Cookie
 * header value that carries the session id. `meta.method` defaults to "password".
 * Throws AccountSuspended (403 `account_suspended`, with the reason and the end) for a suspended
 * member (docs/product/moderation.md#suspension-and-mute): the member's row is locked first, as a
 * suspension locks it, so a sign-in never slips between a suspension and its purge of sessions.
 */
export async function createUserSession(db: Db, userId: number, meta: { ip?: string; userAgent?: string | null; method?: SignInMethod }): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  const method = meta.method ?? "password";
  const ip = meta.ip ?? null;
  const userAgent = meta.userAgent?.slice(0, 500) ?? null;
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("share");
    await assertMaySignIn(tx, userId);
    await tx.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + SESSION_TTL_MS), ip, userAgent, method });
    await tx.insert(signInEvents).values({ userId, method, ip, userAgent });
  });
  const session = await authStorage().getSession();
  session.set("sessionId", id);
  return authStorage().commitSession(session);
}

/** Deletes the request's session row and returns the Set-Cookie header that clears the cookie. */
export async function destroyUserSession(db: Db, request: Request): Promise<string> {
  const session = await authStorage().getSession(request.headers.get("Cookie"));
  const sessionId = session.get("sessionId");
  if (sessionId) await db.delete(sessions).where(eq(sessions.id, sessionId));
  return authStorage().destroySession(session);
}

/** Removes expired sessions; returns how many were deleted. Runs at start-up and hourly (database.server.ts). */
export async function purgeExpiredSessions(db: Db): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .returning({ id: sessions.id });
  return deleted.length;
}

/**
 * Sends a visitor to the login page with `redirect` carrying the original full path
 * (docs/product/routes.md#access-and-guards).
 */
export function redirectToLogin(request: Request): never {
  const url = new URL(request.url);
  const target = url.pathname + url.search;
  throw redirect(`/auth/login?redirect=${encodeURIComponent(target)}`);
}

const SAME_SITE = "http://same-site.invalid";

/**
 * A safe same-site path (path, query and hash) to go to after sign-in; anything else — other
 * origins, protocol-relative `//host`, backslashes or control characters that browsers strip
 * (`/\t/evil.example` becomes `//evil.example`) — falls back to `fallback`.
 */
export function safeRedirect(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || !target.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, SAME_SITE);
    if (url.origin !== SAME_SITE) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
