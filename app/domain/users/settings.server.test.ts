import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "~/db/schema";
import { verifyPassword } from "~/lib/password.server";
import { authenticateApiToken } from "~/lib/realtime/access.server";
import { LocalStorage } from "~/lib/storage/local.server";
import { signInTelegramMember } from "~/lib/telegram/members.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { generateApiToken } from "./sessions.server";
import { canSignInWithoutTelegram, changePassword, linkTelegram, removeAvatar, saveTheme, setAvatar, unlinkTelegram, updateProfile } from "./settings.server";
import { getUserById } from "./users.server";

let t: TestDatabase;
let dataDir: string;
let storage: LocalStorage;
let telegramIds = 7_000_000;

beforeAll(async () => {
  t = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "settings-test-"));
  storage = new LocalStorage(dataDir);
});
afterAll(async () => {
  await t.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

async function reload(id: number) {
  return (await getUserById(t.db, id))!;
}

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const e = error as { code: string; status: number; fieldErrors?: Record<string, string[]> };
    return { code: e.code, status: e.status, fields: Object.keys(e.fieldErrors ?? {}) };
  }
  throw new Error("accepted");
}

async function addSession(userId: number, id: string) {
  const apiToken = generateApiToken();
  await t.db.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + 60_000), apiToken });
  return apiToken;
}

describe(`settings on ${engine} (issue 6 item 4)`, () => {
  it("saves the display name and bio; an empty name means none", async () => {
    const member = await makeUser(t.db);
    await updateProfile(t.db, member.id, { displayName: "Анна Петрова", bio: "Продаю аккаунты" });
    expect(await reload(member.id)).toMatchObject({ displayName: "Анна Петрова", bio: "Продаю аккаунты" });
    await updateProfile(t.db, member.id, { displayName: "", bio: "" });
    expect(await reload(member.id)).toMatchObject({ displayName: null, bio: "" });
  });

  it("stores a new avatar as 256×256 under a new key each time and deletes the previous file", async () => {
    const member = await makeUser(t.db);
    const upload = await sharp({ create: { width: 800, height: 400, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const first = await setAvatar(t.db, storage, member, upload);
    expect(first).toMatch(new RegExp(`^/uploads/avatars/${member.id}/[0-9a-f]+\\.webp$`));
    expect((await reload(member.id)).image).toBe(first);
    const stored = await storage.get(first.slice("/uploads/".length));
    expect(await sharp(stored!.bytes).metadata()).toMatchObject({ width: 256, height: 256, format: "webp" });

    const second = await setAvatar(t.db, storage, await reload(member.id), upload);
    expect(second).not.toBe(first);
    expect(await storage.get(first.slice("/uploads/".length))).toBeNull();

    await removeAvatar(t.db, storage, await reload(member.id));
    expect((await reload(member.id)).image).toBeNull();
    expect(await storage.get(second.slice("/uploads/".length))).toBeNull();
  });

  it("refuses a file that is not an image and keeps the old avatar", async () => {
    const member = await makeUser(t.db);
    await t.db.update(users).set({ image: "https://example.test/a.png" }).where(eq(users.id, member.id));
    expect(await refusal(() => setAvatar(t.db, storage, member, new TextEncoder().encode("not an image")))).toEqual({
      code: "avatar_unsupported_type",
      status: 400,
      fields: ["avatar"],
    });
    expect((await reload(member.id)).image).toBe("https://example.test/a.png");
  });

  it("saves and resets the colour theme, refusing channels outside 0..255", async () => {
    const member = await makeUser(t.db);
    const theme = { primary: [255, 0, 0], secondary: [0, 128, 0], background: [250, 250, 250] } as const;
    await saveTheme(t.db, member.id, { primary: [...theme.primary], secondary: [...theme.secondary], background: [...theme.background] });
    expect((await reload(member.id)).theme).toEqual(theme);
    expect(await refusal(() => saveTheme(t.db, member.id, { primary: [256, 0, 0], secondary: [0, 0, 0], background: [0, 0, 0] }))).toMatchObject({
      code: "invalid_theme",
    });
    await saveTheme(t.db, member.id, null);
    expect((await reload(member.id)).theme).toBeNull();
  });

  it("changes the password, keeping this session and signing out the others with their api tokens", async () => {
    const member = await makeUser(t.db, { password: "old password 1" });
    const hereToken = await addSession(member.id, `here-${member.id}`);
    const phoneToken = await addSession(member.id, `phone-${member.id}`);
    const other = await makeUser(t.db);
    await addSession(other.id, `other-${other.id}`);

    expect(await changePassword(t.db, member, `here-${member.id}`, { currentPassword: "old password 1", newPassword: "new password 2" })).toEqual({
      signedOut: 1,
    });
    const after = await reload(member.id);
    expect(await verifyPassword(after.passwordHash!, "new password 2")).toBe(true);
    expect(await authenticateApiToken(t.db, phoneToken)).toBeNull();
    expect(await authenticateApiToken(t.db, hereToken)).toMatchObject({ id: member.id });
    const left = await t.db.select({ id: sessions.id, userId: sessions.userId }).from(sessions);
    expect(left.filter((s) => s.userId === member.id).map((s) => s.id)).toEqual([`here-${member.id}`]);
    expect(left.some((s) => s.id === `other-${other.id}`)).toBe(true);
  });

  it("refuses a wrong or missing current password and changes nothing", async () => {
    const member = await makeUser(t.db, { password: "old password 1" });
    await addSession(member.id, `a-${member.id}`);
    await addSession(member.id, `b-${member.id}`);
    for (const currentPassword of ["wrong password", undefined]) {
      expect(await refusal(() => changePassword(t.db, member, `a-${member.id}`, { currentPassword, newPassword: "new password 2" }))).toEqual({
        code: "wrong_password",
        status: 400,
        fields: ["currentPassword"],
      });
    }
    expect(
      await refusal(() => changePassword(t.db, member, `a-${member.id}`, { currentPassword: "old password 1", newPassword: "old password 1" })),
    ).toMatchObject({
      code: "same_password",
      fields: ["newPassword"],
    });
    const after = await reload(member.id);
    expect(await verifyPassword(after.passwordHash!, "old password 1")).toBe(true);
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).length).toBe(2);
  });

  it("lets a Telegram-only member set a password without a current one", async () => {
    const { user } = await signInTelegramMember(t.db, { id: ++telegramIds, username: null, firstName: "Тест", lastName: null, authDate: new Date() });
    expect(user.passwordHash).toBeNull();
    await changePassword(t.db, user, undefined, { newPassword: "brand new pass" });
    expect(await verifyPassword((await reload(user.id)).passwordHash!, "brand new pass")).toBe(true);
  });

  it("links a Telegram account, refusing one already linked to another member", async () => {
    const member = await makeUser(t.db);
    const id = ++telegramIds;
    await linkTelegram(t.db, member.id, { id, username: "anna_tg" });
    expect(await reload(member.id)).toMatchObject({ telegramId: id, telegramUsername: "anna_tg" });
    // Linking the same account again refreshes the @username.
    await linkTelegram(t.db, member.id, { id, username: "anna_new" });
    expect((await reload(member.id)).telegramUsername).toBe("anna_new");

    const someoneElse = await makeUser(t.db);
    expect(await refusal(() => linkTelegram(t.db, someoneElse.id, { id, username: "anna_new" }))).toEqual({ code: "telegram_taken", status: 409, fields: [] });
    expect((await reload(someoneElse.id)).telegramId).toBeNull();
  });

  it("unlinks Telegram only when the member can still sign in another way", async () => {
    const member = await makeUser(t.db);
    await linkTelegram(t.db, member.id, { id: ++telegramIds, username: "x" });
    await unlinkTelegram(t.db, await reload(member.id));
    expect(await reload(member.id)).toMatchObject({ telegramId: null, telegramUsername: null });
    expect(await refusal(() => unlinkTelegram(t.db, member))).toMatchObject({ code: "telegram_not_linked" });

    const { user: tgOnly } = await signInTelegramMember(t.db, { id: ++telegramIds, username: null, firstName: "Б", lastName: null, authDate: new Date() });
    expect(canSignInWithoutTelegram(tgOnly)).toBe(false);
    expect(await refusal(() => unlinkTelegram(t.db, tgOnly))).toEqual({ code: "telegram_only_sign_in", status: 400, fields: [] });
    expect((await reload(tgOnly.id)).telegramId).toBe(tgOnly.telegramId);

    await changePassword(t.db, tgOnly, undefined, { newPassword: "now with a password" });
    await unlinkTelegram(t.db, await reload(tgOnly.id));
    expect((await reload(tgOnly.id)).telegramId).toBeNull();
  });
});
