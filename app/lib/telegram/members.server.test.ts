import { sign } from "@telegram-apps/init-data-node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { sessions, signInEvents, users } from "~/db/schema";
import { createUserSession, getSessionUser } from "~/lib/session.server";
import { checkInitData, type TelegramIdentity } from "./init-data.server";
import { findTelegramMember, signInTelegramMember, telegramHeaderSession } from "./members.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

let nextTelegramId = 5_000_000 + Math.floor(Math.random() * 1_000_000);
function identity(overrides: Partial<TelegramIdentity> = {}): TelegramIdentity {
  nextTelegramId += 1;
  return { id: nextTelegramId, username: null, firstName: "Анна", lastName: null, authDate: new Date(), ...overrides };
}

describe(`Telegram members on ${engine}`, () => {
  it("creates a member for a new Telegram user: Telegram username, placeholder email, no password", async () => {
    const who = identity({ username: `anna_${nextTelegramId}`, lastName: "Смирнова" });
    const { user, created } = await signInTelegramMember(t.db, who);
    expect(created).toBe(true);
    expect(user).toMatchObject({
      username: who.username,
      displayName: "Анна Смирнова",
      email: `tg${who.id}@telegram.invalid`,
      emailVerified: false,
      passwordHash: null,
      telegramId: who.id,
      telegramUsername: who.username,
    });
  });

  it("signs the linked member in again instead of creating another, refreshing the @username", async () => {
    const who = identity({ username: null });
    const first = await signInTelegramMember(t.db, who);
    const again = await signInTelegramMember(t.db, { ...who, username: "renamed_later" });
    expect(again).toMatchObject({ created: false, user: { id: first.user.id, telegramUsername: "renamed_later" } });
    expect(await t.db.select().from(users).where(eq(users.telegramId, who.id))).toHaveLength(1);
  });

  it("signs in a password member who linked Telegram (users.telegram_id)", async () => {
    const member = await makeUser(t.db);
    const who = identity();
    await t.db.update(users).set({ telegramId: who.id }).where(eq(users.id, member.id));
    expect(await signInTelegramMember(t.db, who)).toMatchObject({ created: false, user: { id: member.id, username: member.username } });
  });

  it("falls back to tg_<id> when the Telegram username is taken (any case) or breaks the username rule", async () => {
    const holder = await makeUser(t.db);
    const taken = await signInTelegramMember(t.db, identity({ username: holder.username.toUpperCase() }));
    expect(taken.user.username).toBe(`tg_${taken.user.telegramId}`);
    const tooShort = await signInTelegramMember(t.db, identity({ username: "ab" }));
    expect(tooShort.user.username).toBe(`tg_${tooShort.user.telegramId}`);
  });

  it("picks another name when tg_<id> and the placeholder email are both taken already", async () => {
    const who = identity();
    await makeUser(t.db, { username: `tg_${who.id}`, email: `tg${who.id}@telegram.invalid` });
    const { user, created } = await signInTelegramMember(t.db, who);
    expect(created).toBe(true);
    expect(user.username).toMatch(new RegExp(`^tg_${who.id}_[0-9a-f]{6}$`));
    expect(user.email).toMatch(new RegExp(`^tg${who.id}\\.[0-9a-f]{6}@telegram\\.invalid$`));
  });

  it("ends with one member when the same Telegram user signs in twice at once", async () => {
    const who = identity({ username: `twin_${nextTelegramId}` });
    const [a, b] = await Promise.all([signInTelegramMember(t.db, who), signInTelegramMember(t.db, who)]);
    expect(a.user.id).toBe(b.user.id);
    expect(await t.db.select().from(users).where(eq(users.telegramId, who.id))).toHaveLength(1);
  });
});

describe(`Telegram sessions on ${engine}`, () => {
  it("records the sign-in method on the session and in the sign-in history, password by default", async () => {
    const member = await makeUser(t.db);
    await createUserSession(t.db, member.id, { ip: "198.51.100.7", userAgent: "vitest" });
    await createUserSession(t.db, member.id, { ip: "198.51.100.8", userAgent: "Telegram", method: "telegram" });
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, member.id));
    expect(rows.map((row) => row.method).sort()).toEqual(["password", "telegram"]);
    const events = await t.db.select().from(signInEvents).where(eq(signInEvents.userId, member.id)).orderBy(signInEvents.id);
    expect(events.map(({ method, ip, userAgent }) => ({ method, ip, userAgent }))).toEqual([
      { method: "password", ip: "198.51.100.7", userAgent: "vitest" },
      { method: "telegram", ip: "198.51.100.8", userAgent: "Telegram" },
    ]);
  });

  it("authenticates `Authorization: tma <initData>` for the linked member only, and refuses tampered data", async () => {
    const token = "42:header-test-token";
    const { getConfig } = await import("~/lib/config.server");
    // The header reads the process configuration: give it a bot token for this test only.
    const config = getConfig();
    const previous = config.telegramBotToken;
    config.telegramBotToken = token;
    try {
      const who = identity();
      const initData = sign({ user: { id: who.id, first_name: "Анна" } }, token, new Date());
      const request = (value: string) => new Request("http://localhost/api/auth/me", { headers: { Authorization: `tma ${value}` } });
      expect(checkInitData(initData, token, 60).ok).toBe(true);
      // Not linked yet: the header never creates a member.
      expect(await telegramHeaderSession(t.db, request(initData))).toBeNull();
      const { user } = await signInTelegramMember(t.db, who);
      expect((await getSessionUser(t.db, request(initData)))?.id).toBe(user.id);
      const tampered = initData.replace(encodeURIComponent(`"id":${who.id}`), encodeURIComponent(`"id":${who.id + 1}`));
      expect(await getSessionUser(t.db, request(tampered))).toBeNull();
      expect(await findTelegramMember(t.db, who.id + 1)).toBeNull();
    } finally {
      config.telegramBotToken = previous;
    }
  });
});
