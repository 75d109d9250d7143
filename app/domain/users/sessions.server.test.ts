import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { createUserSession } from "~/lib/session.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { describeDevice, endOtherSessions, endSession, listActiveSessions, listSignInEvents, sessionHandle } from "./sessions.server";

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
  await t.db.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + expiresInMs), ip: "10.0.0.1", userAgent, method: "password" });
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
