/**
 * Sessions live in the `sessions` table; the httpOnly SameSite=Lax cookie carries only the
 * session id, so deleting a row revokes that sign-in everywhere (issue 2, docs/product/accounts.md#sessions).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { createCookie, createCookieSessionStorage, redirect } from "react-router";
import type { Db } from "~/db/client.server";
import { sessions, signInEvents, users } from "~/db/schema";
import { assertMaySignIn } from "~/domain/moderation/sanctions.server";
import { endSessionById, generateApiToken } from "~/domain/users/sessions.server";
import type { UserRow } from "~/domain/users/users.server";
import { getConfig } from "./config.server";
import { initDataFromAuthorization } from "./telegram/init-data.server";
import { telegramHeaderSession } from "./telegram/members.server";

/** How long a sign-in lasts: 30 days, in ms. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per member, in ms. */
const LAST_SEEN_WRITE_INTERVAL_MS = 60 * 1000;

type CookieData = { sessionId?: string };

/** The session cookie's name. */
const SESSION_COOKIE = "__session";
/** The session cookie's signed value in a Cookie header (the first, as the cookie parser takes). */
const SESSION_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`);

let storage: ReturnType<typeof createCookieSessionStorage<CookieData>> | undefined;

function authStorage() {
  const config = getConfig();
  storage ??= createCookieSessionStorage<CookieData>({
    cookie: createCookie(SESSION_COOKIE, {
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

/** How many verified session cookies `getSessionId` remembers (the oldest is forgotten first). */
const VERIFIED_COOKIES_KEPT = 5_000;
/** Signed `__session` cookie values already checked, with the session id each carries (or undefined). */
const verifiedCookies = new Map<string, string | undefined>();

/**
 * Reads the session id from the request's cookie, or undefined. Checking a cookie's signature
 * (HMAC through WebCrypto) cost ~7 % of a member's API call (bench/http, issue 12): a signed value
 * always reads the same under this process's secret, so each is checked once and remembered.
 */
export async function getSessionId(request: Request): Promise<string | undefined> {
  return sessionIdOfCookies(request.headers.get("Cookie"));
}

/** getSessionId for a raw Cookie header (`header`), as a request answered before the router carries it. */
export async function sessionIdOfCookies(header: string | null | undefined): Promise<string | undefined> {
  const signed = header ? SESSION_COOKIE_VALUE.exec(header)?.[1] : undefined;
  if (!signed) return undefined;
  if (verifiedCookies.has(signed)) return verifiedCookies.get(signed);
  const sessionId = (await authStorage().getSession(header)).get("sessionId");
  if (verifiedCookies.size >= VERIFIED_COOKIES_KEPT) verifiedCookies.delete(verifiedCookies.keys().next().value!);
  verifiedCookies.set(signed, sessionId);
  return sessionId;
}

/** Whether a Cookie header (`header`) carries a session cookie at all, signed or not (no check). */
export function holdsSessionCookie(header: string | null | undefined): boolean {
  return header ? SESSION_COOKIE_VALUE.test(header) : false;
}

/**
 * The session of a request: its member, expiry, raw id (a credential: never shown) and the
 * realtime apiToken of this session (issue 13 item 1), which /api/auth/me and the page data hand
 * to this browser only.
 */
export interface CurrentSession {
  user: UserRow;
  expiresAt: Date;
  sessionId: string;
  apiToken: string;
}

/** The member signed in on this request, or null; see getCurrentSession (and its `scope`). */
export async function getSessionUser(db: Db, request: Request, scope?: object): Promise<UserRow | null> {
  return (await getCurrentSession(db, request, scope))?.user ?? null;
}

/**
 * The request's session and its member, or null (no cookie, unknown, expired or revoked
 * session). Without a session cookie, an `Authorization: tma <initData>` header signs in the
 * linked member (webviews refusing cookies, issue 6; telegram/members.server.ts); such a
 * request gets a session row of its own, named after its initData, so it has an apiToken like
 * any session and is listed (and endable) on /profile/history until the initData goes stale.
 * Marks the member as seen, at most once a minute.
 */
export function getCurrentSession(db: Db, request: Request, scope?: object): Promise<CurrentSession | null> {
  // The root loader and the page's loader both ask for the member of one request: look it up once.
  // React Router hands each loader its own copy of the Request, so a GET is remembered under
  // `scope` (the request's load context; issue 12: one query of a member page's eleven). A form
  // post's action looks under its own request: the loaders React Router runs after it (with GET
  // copies) look again, once, seeing what the action changed.
  const key = scope !== undefined && (request.method === "GET" || request.method === "HEAD") ? scope : request;
  let pending = sessionsByScope.get(key);
  if (!pending) {
    pending = lookUpSession(db, request);
    sessionsByScope.set(key, pending);
  }
  return pending;
}

/** Each request's (or, for a GET, its load context's) session lookup, while that object lives. */
const sessionsByScope = new WeakMap<object, Promise<CurrentSession | null>>();

async function lookUpSession(db: Db, request: Request): Promise<CurrentSession | null> {
  const sessionId = await getSessionId(request);
  const cookieRow = sessionId ? await sessionRow(db, sessionId) : null;
  const row = cookieRow ?? (await headerSession(db, request));
  if (row) await markSeen(db, row);
  return row;
}

/**
 * The session and member of a Cookie header (`header`) alone, or null: getCurrentSession for a
 * request answered before the router (server/member-calls.ts), which sends requests carrying
 * an Authorization header to the router instead. Marks the member as seen, at most once a minute.
 */
export async function getSessionOfCookies(db: Db, header: string | null | undefined): Promise<CurrentSession | null> {
  const sessionId = await sessionIdOfCookies(header);
  const row = sessionId ? await sessionRow(db, sessionId) : null;
  if (row) await markSeen(db, row);
  return row;
}

/** Writes the member's last_seen_at when it is more than LAST_SEEN_WRITE_INTERVAL_MS old. */
async function markSeen(db: Db, row: CurrentSession): Promise<void> {
  const now = Date.now();
  if (!row.user.lastSeenAt || now - row.user.lastSeenAt.getTime() > LAST_SEEN_WRITE_INTERVAL_MS) {
    await db
      .update(users)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(users.id, row.user.id));
  }
}

/**
 * The query behind `sessionRow`, built once per database: every signed-in request runs it, and
 * building its SQL anew cost as much as the HMAC above (bench/http, issue 12).
 */
function prepareSessionRow(db: Db) {
  return db
    .select({ user: users, expiresAt: sessions.expiresAt, sessionId: sessions.id, apiToken: sessions.apiToken })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder("sessionId")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .limit(1)
    .prepare("session_row");
}

const sessionRowQueries = new WeakMap<Db, ReturnType<typeof prepareSessionRow>>();

/** The unexpired session `sessionId` with its member, or null. */
async function sessionRow(db: Db, sessionId: string): Promise<CurrentSession | null> {
  let query = sessionRowQueries.get(db);
  if (!query) sessionRowQueries.set(db, (query = prepareSessionRow(db)));
  // An ISO string: Drizzle's postgres.js driver hands a placeholder to the driver as given, unmapped.
  const [row] = await query.execute({ sessionId, now: new Date().toISOString() });
  return row ?? null;
}

/**
 * The session of an `Authorization: tma <initData>` request: the row named after the initData's
 * SHA-256, created on its first use (expiring when the initData goes stale), or null when the
 * header does not sign anyone in.
 */
async function headerSession(db: Db, request: Request): Promise<CurrentSession | null> {
  const found = await telegramHeaderSession(db, request);
  const initData = initDataFromAuthorization(request);
  if (!found || initData === null) return null;
  const id = `tma.${createHash("sha256").update(initData).digest("base64url")}`;
  await db
    .insert(sessions)
    .values({
      id,
      userId: found.user.id,
      expiresAt: found.expiresAt,
      method: "telegram",
      apiToken: generateApiToken(),
      userAgent: request.headers.get("User-Agent")?.slice(0, 500) ?? null,
    })
    .onConflictDoNothing();
  const row = await sessionRow(db, id);
  return row && row.user.id === found.user.id ? row : null;
}

/** How a session signed in, kept on the session and in the sign-in history (issue 6 "Sessions"). */
export type SignInMethod = "password" | "telegram" | "email_link";

/**
 * Opens a session for the member: a session row with its own realtime apiToken, and the
 * sign-in recorded in sign_in_events (method, IP, user agent) in the same transaction — the one
 * place every sign-in method goes through. Returns the raw session id and the token.
 * `meta.method` defaults to "password".
 * Throws AccountSuspended (403 `account_suspended`, with the reason and the end) for a suspended
 * member (docs/product/moderation.md#suspension-and-mute): the member's row is locked first, as a
 * suspension locks it, so a sign-in never slips between a suspension and its purge of sessions.
 */
export async function openSession(
  db: Db,
  userId: number,
  meta: { ip?: string; userAgent?: string | null; method?: SignInMethod },
): Promise<{ sessionId: string; apiToken: string }> {
  const id = randomBytes(24).toString("base64url");
  const apiToken = generateApiToken();
  const method = meta.method ?? "password";
  const ip = meta.ip ?? null;
  const userAgent = meta.userAgent?.slice(0, 500) ?? null;
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("share");
    await assertMaySignIn(tx, userId);
    await tx.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + SESSION_TTL_MS), ip, userAgent, method, apiToken });
    await tx.insert(signInEvents).values({ userId, method, ip, userAgent });
  });
  return { sessionId: id, apiToken };
}

/**
 * Opens a session for the member (openSession) and returns the Set-Cookie header value that
 * carries the session id.
 */
export async function createUserSession(db: Db, userId: number, meta: { ip?: string; userAgent?: string | null; method?: SignInMethod }): Promise<string> {
  const { sessionId } = await openSession(db, userId, meta);
  const session = await authStorage().getSession();
  session.set("sessionId", sessionId);
  return authStorage().commitSession(session);
}

/**
 * Ends the request's session (the row, its apiToken and the realtime connections opened with
 * it, in every process) and returns the Set-Cookie header that clears the cookie.
 */
export async function destroyUserSession(db: Db, request: Request): Promise<string> {
  const session = await authStorage().getSession(request.headers.get("Cookie"));
  const sessionId = session.get("sessionId");
  if (sessionId) await endSessionById(db, sessionId);
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
