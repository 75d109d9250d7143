/**
 * The member behind a Telegram account (issue 6 "Telegram sign-in"): the linked one
 * (users.telegram_id), or a new member created on the first sign-in.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { assertRegistrationOpen } from "~/domain/moderation/registration.server";
import { sanctionsInForce } from "~/domain/moderation/sanctions.server";
import type { UserRow } from "~/domain/users/users.server";
import { usernameLookAlikeTaken, usernameSkeleton } from "~/domain/users/username-skeleton.server";
import { getConfig } from "~/lib/config.server";
import { checkInitData, initDataFromAuthorization, type TelegramIdentity } from "./init-data.server";

/** The users_username_format CHECK of app/db/schema.ts. */
const USERNAME_FORMAT = /^[A-Za-z0-9_А-Яа-яЁё]{3,32}$/;

/** The placeholder email of a member created from Telegram: the .invalid TLD never delivers, so no mail is sent to it. */
export function telegramPlaceholderEmail(telegramId: number, suffix = ""): string {
  return `tg${telegramId}${suffix}@telegram.invalid`;
}

/** The member linked to Telegram user `telegramId`, or null. */
export async function findTelegramMember(db: Db, telegramId: number): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.telegramId, telegramId)).limit(1);
  return user ?? null;
}

/**
 * Signs Telegram user `identity` in: returns the linked member (refreshing the Telegram
 * @username kept on it), or creates one. A new member takes the Telegram username when it fits
 * the username rule (3-32 letters, digits, _) and is free case-insensitively and looks like no
 * member's name (same confusable skeleton, issue 13 item 10), else `tg_<id>`
 * (then `tg_<id>_<random>`); their email is the placeholder `tg<id>@telegram.invalid`
 * (unverified) and they have no password. Creating a member throws Forbidden
 * (`registration_closed`) while an admin has closed registration; a linked member still signs in. Concurrent first sign-ins of one
 * Telegram user end with one member (the unique telegram_id decides). `created` tells which path ran.
 */
export async function signInTelegramMember(db: Db, identity: TelegramIdentity): Promise<{ user: UserRow; created: boolean }> {
  const linked = await findTelegramMember(db, identity.id);
  if (linked) return { user: await refreshTelegramUsername(db, linked, identity.username), created: false };
  await assertRegistrationOpen(db);
  const displayName = [identity.firstName, identity.lastName].filter(Boolean).join(" ").trim().slice(0, 64) || null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = await pickUsername(db, identity, attempt);
    const suffix = attempt < 2 ? "" : `.${randomBytes(3).toString("hex")}`;
    const [created] = await db
      .insert(users)
      .values({
        username,
        usernameSkeleton: usernameSkeleton(username),
        displayName,
        email: telegramPlaceholderEmail(identity.id, suffix),
        emailVerified: false,
        passwordHash: null,
        telegramId: identity.id,
        telegramUsername: identity.username,
      })
      .onConflictDoNothing()
      .returning();
    if (created) return { user: created, created: true };
    // A parallel sign-in of the same Telegram user created the member first.
    const raced = await findTelegramMember(db, identity.id);
    if (raced) return { user: raced, created: false };
  }
  throw new Error(`could not create a member for Telegram user ${identity.id}`);
}

async function pickUsername(db: Db, identity: TelegramIdentity, attempt: number): Promise<string> {
  const wanted = identity.username;
  if (attempt === 0 && wanted && USERNAME_FORMAT.test(wanted) && !(await usernameTaken(db, wanted))) return wanted;
  const plain = `tg_${identity.id}`;
  if (attempt <= 1 && !(await usernameTaken(db, plain))) return plain;
  return `tg_${identity.id}_${randomBytes(3).toString("hex")}`.slice(0, 32);
}

/** Taken case-insensitively, or looking like a member's name (same confusable skeleton, issue 13 item 10). */
async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return Boolean(row) || (await usernameLookAlikeTaken(db, username));
}

async function refreshTelegramUsername(db: Db, user: UserRow, username: string | null): Promise<UserRow> {
  if (user.telegramUsername === username) return user;
  const [updated] = await db.update(users).set({ telegramUsername: username }).where(eq(users.id, user.id)).returning();
  return updated ?? user;
}

/**
 * The linked member an `Authorization: tma <initData>` header speaks for, for webviews that
 * refuse cookies (issue 6), with when that authorization lapses (auth_date + the configured
 * max age); null without the header, for invalid, tampered or stale initData, or when no
 * member is linked to that Telegram user (the header never creates members: POST
 * /api/auth/telegram does).
 */
export async function telegramHeaderSession(db: Db, request: Request): Promise<{ user: UserRow; expiresAt: Date } | null> {
  const initData = initDataFromAuthorization(request);
  if (initData === null) return null;
  const { telegramBotToken, telegramInitDataMaxAgeS, telegramInitDataMaxSkewS } = getConfig();
  const check = checkInitData(initData, telegramBotToken, telegramInitDataMaxAgeS, new Date(), telegramInitDataMaxSkewS);
  if (!check.ok) return null;
  const user = await findTelegramMember(db, check.identity.id);
  if (!user) return null;
  // A suspended member's header opens nothing (docs/product/moderation.md#suspension-and-mute).
  if ((await sanctionsInForce(db, user.id)).suspension) return null;
  return { user, expiresAt: new Date(check.identity.authDate.getTime() + telegramInitDataMaxAgeS * 1000) };
}
