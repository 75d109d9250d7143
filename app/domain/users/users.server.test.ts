import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { getProfile, registerUser, rotateApiToken, toCurrentUserDto, verifyCredentials } from "./users.server";
import { RegisterSchema } from "./schemas";
import { users } from "~/db/schema";
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
  it("registers a member with an argon2id hash and a token, never storing the password", async () => {
    const user = await registerUser(t.db, { username: "Вася_Трейдер", email: "vasya@example.test", password: "secret-password" });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain("secret-password");
    expect(user.apiToken.length).toBeGreaterThanOrEqual(40);
    expect(toCurrentUserDto(user)).toEqual({
      id: user.id,
      name: "Вася_Трейдер",
      email: "vasya@example.test",
      image: null,
      apiToken: user.apiToken,
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
    await expect(t.db.insert(users).values({ username: "DBGUARD", email: "dbguard2@example.test", apiToken: "x-unique-token" })).rejects.toThrow();
  });

  it("rejects a malformed username in the database too", async () => {
    await expect(t.db.insert(users).values({ username: "bad name!", email: "bad@example.test", apiToken: "another-token" })).rejects.toThrow();
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
    expect(JSON.stringify(profile)).not.toContain(user.apiToken);
    await expect(getProfile(t.db, 999_999)).rejects.toBeInstanceOf(NotFound);
    await expect(getProfile(t.db, Number.NaN)).rejects.toBeInstanceOf(NotFound);
    await expect(getProfile(t.db, 3_000_000_000)).rejects.toBeInstanceOf(NotFound);
  });
});

describe(`api token rotation on ${engine}`, () => {
  it("a rotated token no longer signs in to realtime and the member's open connections are revoked", async () => {
    const [member, bystander] = [await makeUser(t.db), await makeUser(t.db)];
    // The hub listens on the database's pub/sub (LISTEN on PostgreSQL) from its first use.
    const hub = realtimeHub(t.db);
    await t.pubsub.ready();
    const revoked: number[] = [];
    const connection = (userId: number): RealtimeConnection => ({ userId, send: () => {}, revoke: () => void revoked.push(userId) });
    const detachMember = hub.attach(connection(member.id));
    const detachBystander = hub.attach(connection(bystander.id));
    try {
      const fresh = await rotateApiToken(t.db, member.id);
      expect(fresh).not.toBe(member.apiToken);
      expect(fresh.length).toBeGreaterThanOrEqual(40);
      expect(await authenticateApiToken(t.db, member.apiToken)).toBeNull();
      expect(await authenticateApiToken(t.db, fresh)).toEqual({ id: member.id });
      await waitFor(() => revoked.length > 0, "the member's connection to be revoked");
      expect(revoked).toEqual([member.id]);
      expect(await authenticateApiToken(t.db, bystander.apiToken)).toEqual({ id: bystander.id });
    } finally {
      detachMember();
      detachBystander();
    }
  });

  it("refuses an unknown member", async () => {
    await expect(rotateApiToken(t.db, 999_999)).rejects.toMatchObject({ status: 404, code: "profile_not_found" });
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
