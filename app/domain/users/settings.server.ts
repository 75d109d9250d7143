/**
 * A member's own settings (issue 6 item 4 "Settings", docs/product/accounts.md#profile-settings): name and bio, avatar,
 * colour theme, password, the Telegram link. A session's api token rotates through rotateApiToken
 * (sessions.server.ts). Each function takes the database first and throws typed errors with a
 * stable code; field errors name the settings page's fields.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { users, type ThemeColors } from "~/db/schema";
import { processAvatar } from "~/lib/images/avatar.server";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { assertStorageKey, type FileStorage } from "~/lib/storage/storage.server";
import type { TelegramIdentity } from "~/lib/telegram/init-data.server";
import { Conflict, NotFound, ValidationFailed } from "~/lib/errors";
import { closeSessionConnections, deleteSessionsOf } from "./sessions.server";
import type { UserRow } from "./users.server";

/** The domain of placeholder emails of members created by Telegram sign-in (telegram/members.server.ts). */
const PLACEHOLDER_EMAIL_DOMAIN = "@telegram.invalid";

async function updated(rows: Promise<UserRow[]>): Promise<UserRow> {
  const [row] = await rows;
  if (!row) throw new NotFound("Пользователь не найден", "profile_not_found");
  return row;
}

/**
 * Sets the member's display name (empty → none; up to 64 chars) and bio (up to 1000 chars),
 * both already trimmed and checked by ProfileFormSchema. Returns the updated member.
 * Throws NotFound `profile_not_found`.
 */
export function updateProfile(db: Db, userId: number, input: { displayName?: string; bio?: string }): Promise<UserRow> {
  return updated(
    db
      .update(users)
      .set({ displayName: input.displayName ? input.displayName : null, bio: input.bio ?? "" })
      .where(eq(users.id, userId))
      .returning(),
  );
}

/** The storage key of a member's avatar, if `image` is one this site stored under `avatars/{id}/`, else null. */
function ownAvatarKey(storage: FileStorage, userId: number, image: string | null): string | null {
  const sample = "avatars/0.webp";
  const base = storage.publicUrl(sample).slice(0, -sample.length);
  if (!image || !image.startsWith(`${base}avatars/${userId}/`)) return null;
  const key = image.slice(base.length);
  try {
    assertStorageKey(key);
    return key;
  } catch {
    return null;
  }
}

/**
 * Replaces the member's avatar: the upload is square-cropped and resized to 256×256 WebP
 * (processAvatar), stored under a new random key `avatars/{userId}/{random}.webp` (image URLs
 * are cached for a year, so a new picture needs a new URL), users.image points at it, and the
 * previous stored avatar is deleted. Returns the new public URL.
 * Throws ValidationFailed (field `avatar`) `avatar_empty`, `avatar_too_large`,
 * `avatar_unsupported_type`; NotFound `profile_not_found`.
 */
export async function setAvatar(db: Db, storage: FileStorage, user: Pick<UserRow, "id" | "image">, upload: Uint8Array): Promise<string> {
  const picture = await processAvatar(upload);
  const key = `avatars/${user.id}/${randomBytes(12).toString("hex")}.webp`;
  await storage.put(key, picture.bytes, picture.contentType);
  const url = storage.publicUrl(key);
  try {
    await updated(db.update(users).set({ image: url }).where(eq(users.id, user.id)).returning());
  } catch (error) {
    await storage.delete(key);
    throw error;
  }
  const previous = ownAvatarKey(storage, user.id, user.image);
  if (previous) await storage.delete(previous);
  return url;
}

/** Removes the member's avatar (the default picture shows again) and deletes the stored file. Throws NotFound `profile_not_found`. */
export async function removeAvatar(db: Db, storage: FileStorage, user: Pick<UserRow, "id" | "image">): Promise<void> {
  await updated(db.update(users).set({ image: null }).where(eq(users.id, user.id)).returning());
  const previous = ownAvatarKey(storage, user.id, user.image);
  if (previous) await storage.delete(previous);
}

/**
 * Saves the member's colour theme (docs/product/interface.md#theme: primary, secondary, background as RGB
 * triples of 0..255), or removes it with `null` (the default theme). Throws ValidationFailed
 * `invalid_theme` for a channel outside 0..255, NotFound `profile_not_found`.
 */
export async function saveTheme(db: Db, userId: number, theme: ThemeColors | null): Promise<UserRow> {
  if (theme) {
    const channels = [...theme.primary, ...theme.secondary, ...theme.background];
    const valid =
      [theme.primary, theme.secondary, theme.background].every((c) => c.length === 3) && channels.every((c) => Number.isInteger(c) && c >= 0 && c <= 255);
    if (!valid) throw new ValidationFailed("Неверный цвет темы", undefined, "invalid_theme");
  }
  const value = theme ? { primary: theme.primary, secondary: theme.secondary, background: theme.background } : null;
  return updated(db.update(users).set({ theme: value }).where(eq(users.id, userId)).returning());
}

/**
 * Changes the member's password (argon2id, as registration). A member with a password must give
 * the current one; a member without one (Telegram sign-in only) sets it without. Then every
 * other session of the member is deleted (signed out on other devices; `currentSessionId`
 * stays, undefined deletes all), and with them their apiTokens and open realtime connections.
 * Returns how many sessions were deleted.
 * Throws ValidationFailed `wrong_password` (field currentPassword), `same_password` (field newPassword).
 */
export async function changePassword(
  db: Db,
  user: Pick<UserRow, "id" | "passwordHash">,
  currentSessionId: string | undefined,
  input: { currentPassword?: string; newPassword: string },
): Promise<{ signedOut: number }> {
  if (user.passwordHash) {
    if (!input.currentPassword || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
      throw new ValidationFailed("Неверный текущий пароль", { currentPassword: ["Неверный текущий пароль"] }, "wrong_password");
    }
    if (input.currentPassword === input.newPassword) {
      throw new ValidationFailed("Новый пароль совпадает с текущим", { newPassword: ["Новый пароль совпадает с текущим"] }, "same_password");
    }
  }
  const passwordHash = await hashPassword(input.newPassword);
  const ended = await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    return deleteSessionsOf(tx, user.id, currentSessionId);
  });
  await closeSessionConnections(db, ended);
  return { signedOut: ended.length };
}

/**
 * Links the Telegram account `identity` (from initData checked by checkInitData) to the member.
 * Linking the account already linked to them again only refreshes the @username.
 * Throws Conflict `telegram_taken` (409) when another member has that Telegram account.
 */
export async function linkTelegram(db: Db, userId: number, identity: Pick<TelegramIdentity, "id" | "username">): Promise<UserRow> {
  const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.telegramId, identity.id)).limit(1);
  if (holder && holder.id !== userId) throw telegramTaken();
  try {
    return await updated(db.update(users).set({ telegramId: identity.id, telegramUsername: identity.username }).where(eq(users.id, userId)).returning());
  } catch (error) {
    if (isUniqueViolation(error)) throw telegramTaken();
    throw error;
  }
}

function telegramTaken(): Conflict {
  return new Conflict("Этот Telegram-аккаунт уже привязан к другому участнику", "telegram_taken");
}

/** True when the member could still sign in without Telegram: a password, or a real verified email (password reset). */
export function canSignInWithoutTelegram(user: Pick<UserRow, "passwordHash" | "email" | "emailVerified">): boolean {
  if (user.passwordHash) return true;
  return user.emailVerified && !user.email.toLowerCase().endsWith(PLACEHOLDER_EMAIL_DOMAIN);
}

/**
 * Unlinks the member's Telegram account. Throws ValidationFailed `telegram_not_linked` when
 * none is linked, and `telegram_only_sign_in` when the member would have no way left to sign in
 * (no password and no verified real email): they should set a password first.
 */
export async function unlinkTelegram(db: Db, user: Pick<UserRow, "id" | "telegramId" | "passwordHash" | "email" | "emailVerified">): Promise<UserRow> {
  if (user.telegramId === null) throw new ValidationFailed("Telegram не привязан", undefined, "telegram_not_linked");
  if (!canSignInWithoutTelegram(user)) {
    throw new ValidationFailed("Без Telegram вы не сможете войти: сначала задайте пароль ниже, затем отвяжите Telegram", undefined, "telegram_only_sign_in");
  }
  return updated(db.update(users).set({ telegramId: null, telegramUsername: null }).where(eq(users.id, user.id)).returning());
}
