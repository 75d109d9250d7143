/**
 * Members' polled calls answered before Express and the router (issue 12;
 * docs/decisions/0035-polled-calls-before-the-router.md): the unread counters a client asks for
 * again and again. Through Express (request logging, compression, helmet, the router's
 * middleware) and React Router (a Fetch Request, route matching, the loader) such a call cost
 * four times the CPU of its two small queries. Here the same session check and the same data
 * function as the route's loader answer it straight on Node's response, with the headers and the
 * request log's line every response gets.
 *
 * Only a GET of the exact path, signed in by a session cookie and carrying no Authorization
 * header, is taken: a Mini App's `Authorization: tma …` sign-in, a query string or a HEAD goes
 * to the route as before.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Db } from "~/db/client.server";
import { getDatabase } from "~/db/database.server";
import { Unauthorized } from "~/lib/errors";
import { getSessionOfCookies, holdsSessionCookie } from "~/lib/session.server";
import { unreadMessagesData, unreadNotificationsData } from "~/routes/api/unread-calls.server";
import { writeApiError, writeJson } from "./send-response";

/** Each call's path and the data it answers for the signed-in member `userId`. */
type MemberCall = (db: Db, userId: number) => Promise<unknown>;
const MEMBER_CALLS: ReadonlyMap<string, MemberCall> = new Map<string, MemberCall>([
  ["/api/profile/notifications/unread", unreadNotificationsData],
  ["/api/profile/conversations/messages/unread", unreadMessagesData],
]);

/**
 * Takes a member's polled call (MEMBER_CALLS) and answers it on `res`: `{success: true, data}`, or
 * the JSON error envelope (401 `unauthorized` when the cookie signs no one in, 500 `internal`),
 * as the route would. `answering()` is called once the call is taken and gives what every
 * answer carries (the request id and security headers). Returns false, having written nothing,
 * for any other request; Express answers it then.
 */
export function answerMemberCall(req: IncomingMessage, res: ServerResponse, answering: () => { headers: OutgoingHttpHeaders }): boolean {
  const call = req.method === "GET" ? MEMBER_CALLS.get(req.url ?? "") : undefined;
  const cookies = req.headers.cookie;
  if (!call || req.headers.authorization !== undefined || !holdsSessionCookie(cookies)) return false;
  res.setHeaders(new Map(Object.entries(answering().headers) as [string, string][]));
  void answer(res, call, cookies).catch((error: unknown) => res.destroy(error instanceof Error ? error : undefined));
  return true;
}

async function answer(res: ServerResponse, call: MemberCall, cookies: string | undefined): Promise<void> {
  try {
    const { db } = await getDatabase();
    const session = await getSessionOfCookies(db, cookies);
    if (!session) throw new Unauthorized();
    const data = await call(db, session.user.id);
    if (!res.destroyed) writeJson(res, 200, { success: true, data });
  } catch (error) {
    if (!res.destroyed) await writeApiError(res, error);
  }
}
