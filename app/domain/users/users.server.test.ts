import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { getProfile, registerUser, toCurrentUserDto, verifyCredentials } from "./users.server";
import { rotateApiToken } from "./sessions.server";
import { openSession } from "~/lib/session.server";
import { RegisterSchema } from "./schemas";
import { eq, inArray } from "drizzle-orm";
import { users } from "~/db/schema";
import { signInTelegramMember } from "~/lib/telegram/members.server";
import { backfillUsernameSkeletons, usernameSkeleton } from "./username-skeleton.server";
import { Conflict, NotFound } from "~/lib/errors";
import { authenticateApiToken } from "~/lib/realtime/access.server";
import { realtimeHub, type RealtimeConnection } from "~/lib/realtime/hub.server";
import { waitFor } from "../../../tests/setup/wait";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

describe(`members on ${engine}`, () => {
  it("registers a member with an argon2id hash, never storing the password; a session brings its own token", async () => {
    const user = await registerUser(t.db, { username: "Вася_Трейдер", email: "vasya@example.test", password: "secret-password" });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain("secret-password");
    const { apiToken } = await openSession(t.db, user.id, {});
    expect(apiToken.length).toBeGreaterThanOrEqual(40);
    expect(toCurrentUserDto(user, apiToken)).toEqual({
      id: user.id,
      name: "Вася_Трейдер",
      email: "vasya@example.test",
      image: null,
      apiToken,
      customization: { theme: null },
    });
  });

  it("refuses a username taken in another letter case, naming the field", async () => {
    await makeUser(t.db, { username: "CryptoKing" });
    const attempt = registerUser(t.db, { username: "cryptoking", email: "other@example.test", password: "password123" });
    await expect(attempt).rejects.toBeInstanceOf(Conflict);
    await expect(attempt).rejects.toMatchObject({ code: "username_taken", fieldErrors: { username: ["Это имя пользователя уже занято"] } });
  });

  it("refuses a Cyrillic username taken in another letter case and signs in with any case", async () => {
    await makeUser(t.db, { username: "Иван_Гарант", email: "ivan-garant@example.test", password: "right-password" });
    await expect(registerUser(t.db, { username: "иван_гарант", email: "other-ivan@example.test", password: "password123" })).rejects.toMatchObject({
      code: "username_taken",
    });
    expect(await verifyCredentials(t.db, "ИВАН_ГАРАНТ", "right-password")).not.toBeNull();
  });

  it("refuses an email already registered", async () => {
    await makeUser(t.db, { email: "same@example.test" });
    await expect(registerUser(t.db, { username: "another_one", email: "same@example.test", password: "password123" })).rejects.toMatchObject({
      code: "email_taken",
    });
  });

  it("enforces case-insensitive uniqueness in the database itself", async () => {
    await makeUser(t.db, { username: "DbGuard" });
    await expect(t.db.insert(users).values({ username: "DBGUARD", email: "dbguard2@example.test" })).rejects.toThrow();
  });

  it("rejects a malformed username in the database too", async () => {
    await expect(t.db.insert(users).values({ username: "bad name!", email: "bad@example.test" })).rejects.toThrow();
  });

  it("signs in by email or username, case-insensitively, and only with the right password", async () => {
    const user = await makeUser(t.db, { username: "LoginCase", email: "logincase@example.test", password: "right-password" });
    expect((await verifyCredentials(t.db, "LOGINCASE@example.test", "right-password"))?.id).toBe(user.id);
    expect((await verifyCredentials(t.db, "logincase", "right-password"))?.id).toBe(user.id);
    expect(await verifyCredentials(t.db, "logincase", "wrong-password")).toBeNull();
    expect(await verifyCredentials(t.db, "nobody", "right-password")).toBeNull();
  });

  it("shows a public profile without email or token", async () => {
    const user = await makeUser(t.db);
    const profile = await getProfile(t.db, user.id);
    expect(profile).toMatchObject({ id: user.id, username: user.username, postCount: 0, ranks: [] });
    expect(JSON.stringify(profile)).not.toContain(user.email);
    await expect(getProfile(t.db, 999_999)).rejects.toBeInstanceOf(NotFound);
    await expect(getProfile(t.db, Number.NaN)).rejects.toBeInstanceOf(NotFound);
    await expect(getProfile(t.db, 3_000_000_000)).rejects.toBeInstanceOf(NotFound);
  });
});

describe(`usernames that pass for someone else's on ${engine} (issue 13 item 10)`, () => {
  it("refuses a name mixing Latin and Cyrillic letters, such as «аdmin» with a Cyrillic а", async () => {
    await makeUser(t.db, { username: "admin_sec" });
    await expect(registerUser(t.db, { username: "аdmin_sec", email: "fake-admin@example.test", password: "password123" })).rejects.toMatchObject({
      status: 400,
      code: "username_mixed_script",
      fieldErrors: { username: ["Имя должно быть целиком латиницей или целиком кириллицей"] },
    });
    expect(RegisterSchema.safeParse({ username: "аdmin", email: "a@b.ru", password: "12345678" }).success).toBe(false);
  });

  it("refuses a name whose confusable skeleton equals an existing one's: all-Cyrillic «сосо» for «coco», «lvan» for «Ivan»", async () => {
    await makeUser(t.db, { username: "coco" });
    await makeUser(t.db, { username: "Ivan_sec" });
    for (const username of ["сосо", "lvan_sec", "COCO_".slice(0, 4)]) {
      const attempt = registerUser(t.db, { username, email: `${Math.random().toString(36).slice(2)}@example.test`, password: "password123" });
      await expect(attempt, username).rejects.toMatchObject({ status: 409 });
    }
    await expect(registerUser(t.db, { username: "сосо", email: "coco-cyr@example.test", password: "password123" })).rejects.toMatchObject({
      code: "username_confusable",
      fieldErrors: { username: ["Это имя слишком похоже на имя другого участника"] },
    });
    // Different-looking names are fine in either script.
    await expect(registerUser(t.db, { username: "Кокос", email: "kokos@example.test", password: "password123" })).resolves.toMatchObject({ username: "Кокос" });
  });

  it("keeps look-alike names unique in the database itself, in one indexed column", async () => {
    const first = await makeUser(t.db, { username: "paypal_sec" });
    const [row] = await t.db.select({ skeleton: users.usernameSkeleton }).from(users).where(eq(users.id, first.id));
    expect(row!.skeleton).toBe(usernameSkeleton("paypal_sec"));
    await expect(
      t.db.insert(users).values({ username: "paypaI_sec", usernameSkeleton: usernameSkeleton("paypaI_sec"), email: "pp2@example.test" }),
    ).rejects.toThrow();
  });

  it("fills the skeletons of members from before migration 0012, leaving an older look-alike without one", async () => {
    const [older, twin] = await t.db
      .insert(users)
      .values([
        { username: "oldtimer_sec", email: "old1@example.test" },
        { username: "o1dtimer_sec", email: "old2@example.test" },
      ])
      .returning();
    await backfillUsernameSkeletons(t.db);
    const rows = await t.db
      .select({ id: users.id, skeleton: users.usernameSkeleton })
      .from(users)
      .where(inArray(users.id, [older!.id, twin!.id]));
    expect(rows.find((r) => r.id === older!.id)?.skeleton).toBe(usernameSkeleton("oldtimer_sec"));
    expect(rows.find((r) => r.id === twin!.id)?.skeleton).toBeNull();
  });

  it("gives a member created from Telegram tg_<id> when their Telegram name looks like a member's", async () => {
    await makeUser(t.db, { username: "trusted_seller" });
    const { user } = await signInTelegramMember(t.db, {
      id: 880_001,
      username: "trusted_se11er",
      firstName: "Фальшивый",
      lastName: null,
      authDate: new Date(),
    });
    expect(user.username).toBe("tg_880001");
  });
});

describe(`api token rotation on ${engine}`, () => {
  it("a rotated token no longer signs in to realtime and only that session's open connections are revoked", async () => {
    const member = await makeUser(t.db);
    const [phone, laptop] = [await openSession(t.db, member.id, {}), await openSession(t.db, member.id, {})];
    // The hub listens on the database's pub/sub (LISTEN on PostgreSQL) from its first use.
    const hub = realtimeHub(t.db);
    await t.pubsub.ready();
    const revoked: string[] = [];
    const connection = (token: string): RealtimeConnection => ({
      userId: member.id,
      session: undefined,
      send: () => {},
      revoke: () => void revoked.push(token),
    });
    const phoneConnection = connection(phone.apiToken);
    phoneConnection.session = (await authenticateApiToken(t.db, phone.apiToken))!.session;
    const laptopConnection = connection(laptop.apiToken);
    laptopConnection.session = (await authenticateApiToken(t.db, laptop.apiToken))!.session;
    const detachPhone = hub.attach(phoneConnection);
    const detachLaptop = hub.attach(laptopConnection);
    try {
      const fresh = await rotateApiToken(t.db, phone.sessionId);
      expect(fresh).not.toBe(phone.apiToken);
      expect(fresh.length).toBeGreaterThanOrEqual(40);
      expect(await authenticateApiToken(t.db, phone.apiToken)).toBeNull();
      expect(await authenticateApiToken(t.db, fresh)).toMatchObject({ id: member.id });
      await waitFor(() => revoked.length > 0, "the phone's connection to be revoked");
      expect(revoked).toEqual([phone.apiToken]);
      expect(await authenticateApiToken(t.db, laptop.apiToken)).toMatchObject({ id: member.id });
    } finally {
      detachPhone();
      detachLaptop();
    }
  });

  it("refuses a session that no longer exists", async () => {
    await expect(rotateApiToken(t.db, "no-such-session")).rejects.toMatchObject({ status: 404, code: "session_not_found" });
  });
});

describe("RegisterSchema", () => {
  it.each([
    [{ username: "ab", email: "a@b.ru", password: "12345678" }, "username", "Имя пользователя — не короче 3 символов"],
    [{ username: "good_name", email: "not-an-email", password: "12345678" }, "email", "Введите корректный email"],
    [{ username: "good_name", email: "a@b.ru", password: "short" }, "password", "Пароль — не короче 8 символов"],
    [{ username: "space name", email: "a@b.ru", password: "12345678" }, "username", "Только латинские и русские буквы, цифры и _"],
  ])("explains in Russian what is wrong with %j", (input, field, message) => {
    const result = RegisterSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((i) => i.path[0] === field)?.message).toBe(message);
  });

  it("normalises the email to lower case", () => {
    expect(RegisterSchema.parse({ username: "Мария", email: "Maria@Example.RU", password: "12345678" }).email).toBe("maria@example.ru");
  });
});
