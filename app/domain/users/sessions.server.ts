/**
 * The member's sign-in history and active sessions (issue 6 "Sessions", /profile/history).
 * Sessions are created by lib/session.server.ts createUserSession, which also writes the
 * sign_in_events row; this module only reads them and ends sessions.
 *
 * A session's id is its bearer credential (the cookie carries it, signed), so pages never see
 * it: each session is named by a `handle`, the first 16 characters of the base64url SHA-256
 * of its id.
 *
 * Each session carries its own realtime apiToken (issue 13 item 1, docs/decisions/0017), so
 * ending a session ends its token: every function here that deletes session rows also closes
 * the realtime connections (websockets and event streams) opened with their tokens, in every
 * server process, once the deletion has committed. Code that deletes session rows some other
 * way leaves no working token either (the token lives on the row), and the transports notice
 * within one heartbeat; call closeSessionConnections (or realtimeHub.revokeUser) to close them
 * at once.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, ne } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { sessions, signInEvents } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { realtimeHub } from "~/lib/realtime/hub.server";

/** One row of the sign-in history; `createdAt` is an ISO string. */
export interface SignInEventDto {
  id: number;
  createdAt: string;
  /** "password" | "telegram" | "email_link" (lib/session.server.ts SignInMethod), or another stored value. */
  method: string;
  ip: string | null;
  /** A readable Russian description of the user agent, e.g. «Chrome на Windows». */
  device: string;
}

/** One active (not expired) session; `current` marks the session of the request. */
export interface ActiveSessionDto {
  handle: string;
  createdAt: string;
  expiresAt: string;
  method: string;
  ip: string | null;
  device: string;
  current: boolean;
}

/** The public name of a session id (see the module comment); also what the realtime hub knows a session's connections by. */
export function sessionHandle(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("base64url").slice(0, 16);
}

/** A new random realtime token for a session: 32 bytes, base64url (43 characters). */
export function generateApiToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Closes the realtime connections opened with the tokens of sessions `sessionIds`, in every
 * server process: websockets with 4401, event streams after an `invalid_token` frame. Call it
 * after the transaction that deleted (or re-tokened) the rows has committed. No-op for [].
 */
export async function closeSessionConnections(db: Db, sessionIds: string[]): Promise<void> {
  if (sessionIds.length > 0) await realtimeHub(db).revokeSessions(sessionIds.map(sessionHandle));
}

/**
 * Deletes member `userId`'s sessions, all of them or all but `exceptSessionId`, inside `db` (a
 * transaction may be given), and returns the deleted ids for closeSessionConnections.
 */
export async function deleteSessionsOf(db: Db | Tx, userId: number, exceptSessionId?: string): Promise<string[]> {
  const where = exceptSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)) : eq(sessions.userId, userId);
  const deleted = await db.delete(sessions).where(where).returning({ id: sessions.id });
  return deleted.map((row) => row.id);
}

/**
 * Signs member `userId` out everywhere: deletes every session (so every apiToken of theirs
 * stops working) and closes all their realtime connections in every process — those of
 * `Authorization: tma` requests included. Returns how many sessions were ended. For password
 * resets and suspensions (docs/product/accounts.md#apitoken).
 */
export async function endAllSessions(db: Db, userId: number): Promise<number> {
  const ended = await deleteSessionsOf(db, userId);
  await realtimeHub(db).revokeUser(userId);
  return ended.length;
}

/**
 * Ends one session by its raw id (sign-out): deletes the row and closes the connections of its
 * token. Does nothing for an unknown id.
 */
export async function endSessionById(db: Db, sessionId: string): Promise<void> {
  const deleted = await db.delete(sessions).where(eq(sessions.id, sessionId)).returning({ id: sessions.id });
  await closeSessionConnections(
    db,
    deleted.map((row) => row.id),
  );
}

/**
 * Gives session `sessionId` a new apiToken («Сменить токен» in the settings) and closes the
 * connections opened with the old one; the member's other devices keep theirs. Returns the new
 * token. Throws NotFound (`session_not_found`) when the session no longer exists.
 */
export async function rotateApiToken(db: Db, sessionId: string): Promise<string> {
  const apiToken = generateApiToken();
  const updated = await db.update(sessions).set({ apiToken }).where(eq(sessions.id, sessionId)).returning({ id: sessions.id });
  if (updated.length === 0) throw new NotFound("Сеанс не найден: войдите заново", "session_not_found");
  await closeSessionConnections(db, [sessionId]);
  return apiToken;
}

/** The member's sign-ins, newest first, paginated (10 a page by default). Two queries. */
export async function listSignInEvents(db: Db, userId: number, params: PageParams): Promise<Page<SignInEventDto>> {
  const where = eq(signInEvents.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(signInEvents)
      .where(where)
      .orderBy(desc(signInEvents.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
    db.select({ value: count() }).from(signInEvents).where(where),
  ]);
  return toPage(
    rows.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), method: r.method, ip: r.ip, device: describeDevice(r.userAgent) })),
    total?.value ?? 0,
    params,
  );
}

/**
 * The member's sessions that have not expired, the current one first, then newest first.
 * `currentSessionId` is the raw id of the request's session (undefined when the request is
 * authenticated another way, e.g. the Telegram header).
 */
export async function listActiveSessions(db: Db, userId: number, currentSessionId: string | undefined): Promise<ActiveSessionDto[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.createdAt));
  const list = rows.map((r) => ({
    handle: sessionHandle(r.id),
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    method: r.method,
    ip: r.ip,
    device: describeDevice(r.userAgent),
    current: r.id === currentSessionId,
  }));
  return [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
}

/**
 * Deletes every session of the member except `currentSessionId` («Выйти на других
 * устройствах»); with no current session it deletes them all. Their apiTokens end and their
 * open realtime connections close. Returns how many were ended.
 */
export async function endOtherSessions(db: Db, userId: number, currentSessionId: string | undefined): Promise<number> {
  const ended = await deleteSessionsOf(db, userId, currentSessionId);
  await closeSessionConnections(db, ended);
  return ended.length;
}

/**
 * Ends one of the member's sessions named by its handle («Завершить»), its apiToken and its open
 * realtime connections with it. Returns whether it was
 * the request's own session (the caller then clears the cookie).
 * Throws NotFound (`session_not_found`) when the member has no such session (another member's
 * handle included).
 */
export async function endSession(db: Db, userId: number, handle: string, currentSessionId: string | undefined): Promise<{ wasCurrent: boolean }> {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  const match = rows.find((r) => sessionHandle(r.id) === handle);
  if (!match) throw new NotFound("Сеанс не найден: возможно, он уже завершён", "session_not_found");
  await db.delete(sessions).where(and(eq(sessions.id, match.id), eq(sessions.userId, userId)));
  await closeSessionConnections(db, [match.id]);
  return { wasCurrent: match.id === currentSessionId };
}

const BROWSERS: [RegExp, string][] = [
  [/YaBrowser\//, "Яндекс Браузер"],
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/Windows/, "Windows"],
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/**
 * A readable Russian description of a User-Agent header: «Chrome на Windows», «Safari на
 * iPhone», «Firefox» (system unknown), «Telegram на Android» for Telegram's clients,
 * «Неизвестное устройство» when nothing is recognised or the header is missing.
 */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Неизвестное устройство";
  const browser = /Telegram/i.test(userAgent) ? "Telegram" : BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} на ${system}`;
  if (browser) return browser;
  if (system) return `Браузер на ${system}`;
  return "Неизвестное устройство";
}
