import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { authenticateApiToken } from "~/lib/realtime/access.server";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { createUserSession, openSession } from "~/lib/session.server";
import { waitFor } from "../../../tests/setup/wait";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import {
  describeDevice,
  endAllSessions,
  endOtherSessions,
  endSession,
  generateApiToken,
  listActiveSessions,
  listSignInEvents,
  sessionHandle,
} from "./sessions.server";

const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function addSession(userId: number, id: string, userAgent: string | null, expiresInMs = 60_000) {
  await t.db
    .insert(sessions)
    .values({ id, userId, expiresAt: new Date(Date.now() + expiresInMs), ip: "10.0.0.1", userAgent, method: "password", apiToken: generateApiToken() });
}

describe(`sessions (${engine})`, () => {
  it("lists sign-ins newest first with method, IP and a readable device, paginated", async () => {
    const member = await makeUser(t.db);
    await createUserSession(t.db, member.id, { ip: "203.0.113.5", userAgent: CHROME_WINDOWS, method: "password" });
    await createUserSession(t.db, member.id, { ip: "203.0.113.6", userAgent: SAFARI_IPHONE, method: "telegram" });
    await createUserSession(t.db, member.id, { ip: "203.0.113.7", userAgent: null, method: "email_link" });
    const first = await listSignInEvents(t.db, member.id, { page: 1, perPage: 2 });
    expect(first.total).toBe(3);
    expect(first.totalPages).toBe(2);
    expect(first.items.map((e) => [e.method, e.ip, e.device])).toEqual([
      ["email_link", "203.0.113.7", "Неизвестное устройство"],
      ["telegram", "203.0.113.6", "Safari на iPhone"],
    ]);
    const second = await listSignInEvents(t.db, member.id, { page: 2, perPage: 2 });
    expect(second.items.map((e) => e.device)).toEqual(["Chrome на Windows"]);
    const other = await makeUser(t.db);
    expect((await listSignInEvents(t.db, other.id, { page: 1, perPage: 10 })).total).toBe(0);
  });

  it("lists only unexpired sessions, the current one first and marked", async () => {
    const member = await makeUser(t.db);
    await addSession(member.id, `${member.id}-a`, CHROME_WINDOWS);
    await addSession(member.id, `${member.id}-b`, SAFARI_IPHONE);
    await addSession(member.id, `${member.id}-old`, CHROME_WINDOWS, -1000);
    const list = await listActiveSessions(t.db, member.id, `${member.id}-b`);
    expect(list.map((s) => [s.handle, s.current, s.device])).toEqual([
      [sessionHandle(`${member.id}-b`), true, "Safari на iPhone"],
      [sessionHandle(`${member.id}-a`), false, "Chrome на Windows"],
    ]);
    expect(JSON.stringify(list)).not.toContain(`"${member.id}-a"`);
  });

  it("«Выйти на других устройствах» keeps only the current session and leaves other members alone", async () => {
    const member = await makeUser(t.db);
    const other = await makeUser(t.db);
    await addSession(member.id, `${member.id}-1`, null);
    await addSession(member.id, `${member.id}-2`, null);
    await addSession(member.id, `${member.id}-3`, null);
    await addSession(other.id, `${other.id}-x`, null);
    expect(await endOtherSessions(t.db, member.id, `${member.id}-2`)).toBe(2);
    const left = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, member.id));
    expect(left.map((r) => r.id)).toEqual([`${member.id}-2`]);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, other.id))).toHaveLength(1);
  });

  it("ends one session by its handle; another member's handle is not found", async () => {
    const member = await makeUser(t.db);
    const other = await makeUser(t.db);
    await addSession(member.id, `${member.id}-p`, null);
    await addSession(member.id, `${member.id}-q`, null);
    await addSession(other.id, `${other.id}-z`, null);
    expect(await endSession(t.db, member.id, sessionHandle(`${member.id}-q`), `${member.id}-p`)).toEqual({ wasCurrent: false });
    expect((await listActiveSessions(t.db, member.id, `${member.id}-p`)).map((s) => s.current)).toEqual([true]);
    await expect(endSession(t.db, member.id, sessionHandle(`${other.id}-z`), undefined)).rejects.toBeInstanceOf(NotFound);
    await expect(endSession(t.db, member.id, sessionHandle(`${member.id}-q`), undefined)).rejects.toMatchObject({ code: "session_not_found" });
    expect(await endSession(t.db, member.id, sessionHandle(`${member.id}-p`), `${member.id}-p`)).toEqual({ wasCurrent: true });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, other.id))).toHaveLength(1);
  });
});

describe(`apiTokens end with their sessions (${engine}, issue 13 item 1)`, () => {
  /** Revocations the hub hands this process's connections: sessions by handle, members by id. */
  async function watchRevocations(userId: number, handles: string[]) {
    const hub = realtimeHub(t.db);
    await t.pubsub.ready();
    const revoked: string[] = [];
    const detach = handles.map((session) => hub.attach({ userId, session, send: () => {}, revoke: () => void revoked.push(session) }));
    return { revoked, stop: () => detach.forEach((off) => off()) };
  }

  it("ending the other sessions ends their tokens and closes their connections; this session keeps its token", async () => {
    const member = await makeUser(t.db);
    const [here, phone, tablet] = [await openSession(t.db, member.id, {}), await openSession(t.db, member.id, {}), await openSession(t.db, member.id, {})];
    const watch = await watchRevocations(
      member.id,
      [here, phone, tablet].map((s) => sessionHandle(s.sessionId)),
    );
    try {
      expect(await endOtherSessions(t.db, member.id, here.sessionId)).toBe(2);
      expect(await authenticateApiToken(t.db, phone.apiToken)).toBeNull();
      expect(await authenticateApiToken(t.db, tablet.apiToken)).toBeNull();
      expect(await authenticateApiToken(t.db, here.apiToken)).toEqual({ id: member.id, username: member.username, session: sessionHandle(here.sessionId) });
      await waitFor(() => watch.revoked.length === 2 || undefined, "both ended sessions' connections to be revoked");
      expect(watch.revoked.sort()).toEqual([sessionHandle(phone.sessionId), sessionHandle(tablet.sessionId)].sort());
    } finally {
      watch.stop();
    }
  });

  it("signing out everywhere (password reset, suspension) ends every token and every connection of the member", async () => {
    const member = await makeUser(t.db);
    const bystander = await openSession(t.db, (await makeUser(t.db)).id, {});
    const [a, b] = [await openSession(t.db, member.id, {}), await openSession(t.db, member.id, {})];
    const watch = await watchRevocations(member.id, [sessionHandle(a.sessionId)]);
    try {
      expect(await endAllSessions(t.db, member.id)).toBe(2);
      expect(await authenticateApiToken(t.db, a.apiToken)).toBeNull();
      expect(await authenticateApiToken(t.db, b.apiToken)).toBeNull();
      await waitFor(() => watch.revoked.length === 1 || undefined, "the member's connection to be revoked");
      expect(await authenticateApiToken(t.db, bystander.apiToken)).not.toBeNull();
    } finally {
      watch.stop();
    }
  });

  it("a token stops working once its session row is gone, however it was deleted, or once it expires", async () => {
    const member = await makeUser(t.db);
    const deleted = await openSession(t.db, member.id, {});
    const expiring = await openSession(t.db, member.id, {});
    await t.db.delete(sessions).where(eq(sessions.id, deleted.sessionId));
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, expiring.sessionId));
    expect(await authenticateApiToken(t.db, deleted.apiToken)).toBeNull();
    expect(await authenticateApiToken(t.db, expiring.apiToken)).toBeNull();
  });
});

describe("describeDevice", () => {
  it.each([
    [CHROME_WINDOWS, "Chrome на Windows"],
    [SAFARI_IPHONE, "Safari на iPhone"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox на Linux"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0", "Edge на macOS"],
    ["Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 YaBrowser/24.6 Mobile Safari/537.36", "Яндекс Браузер на Android"],
    ["curl/8.5.0", "Неизвестное устройство"],
    [null, "Неизвестное устройство"],
  ])("%s → %s", (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });
});
