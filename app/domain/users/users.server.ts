/**
 * Members: registration, credential checks and the public shapes of a member.
 * Rules: docs/product/accounts.md#members (username 3-32 chars, unique case-insensitively; unique email).
 */
import { randomBytes } from "node:crypto";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { posts, users, type ThemeColors } from "~/db/schema";
import { Conflict, NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import type { RegisterInput } from "./schemas";
import { isMixedScript, MIXED_SCRIPT_MESSAGE } from "./username-safety";
import { usernameLookAlikeTaken, usernameSkeleton } from "./username-skeleton.server";
import { isUniqueViolation } from "~/db/errors";
import { assertRegistrationOpen } from "../moderation/registration.server";

export type UserRow = typeof users.$inferSelect;
export type Rank = "ADMIN" | "MODERATOR" | "VERIFIED" | "SCAMMER";

/** The current-user shape of docs/product/accounts.md#current-user, answered by GET /api/auth/me. */
export interface CurrentUserDto {
  id: number;
  name: string;
  email: string;
  image: string | null;
  apiToken: string;
  customization: { theme: ThemeColors | null };
}

/** A member as anyone may see them (no email, no token). */
export interface ProfileDto {
  id: number;
  username: string;
  displayName: string | null;
  bio: string;
  image: string | null;
  ranks: Rank[];
  createdAt: string;
  lastSeenAt: string | null;
  postCount: number;
}

/** A compact author reference for lists: loaded in one batch per list, never per row. */
export interface UserRefDto {
  id: number;
  username: string;
  displayName: string | null;
  image: string | null;
  ranks: Rank[];
}

/** Ranks shown beside a name (docs/product/accounts.md#roles-and-ranks); SCAMMER comes from an upheld claim (docs/product/claims.md#scammer-rank). */
export function ranksOf(user: Pick<UserRow, "role" | "verified" | "scammer">): Rank[] {
  const ranks: Rank[] = [];
  if (user.role === "admin") ranks.push("ADMIN");
  if (user.role === "moderator") ranks.push("MODERATOR");
  if (user.verified) ranks.push("VERIFIED");
  if (user.scammer) ranks.push("SCAMMER");
  return ranks;
}

/**
 * The current-user shape of docs/product/routes.md#json-calls for `user` signed in on a session whose realtime token is
 * `apiToken` (each session has its own, docs/decisions/0017).
 */
export function toCurrentUserDto(user: UserRow, apiToken: string): CurrentUserDto {
  return {
    id: user.id,
    name: user.username,
    email: user.email,
    image: user.image,
    apiToken,
    customization: { theme: user.theme ?? null },
  };
}

export function toUserRefDto(user: UserRow): UserRefDto {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    image: user.image,
    ranks: ranksOf(user),
  };
}

/**
 * Creates a member with an argon2id password hash (their apiTokens come with their sessions).
 * Throws Forbidden (`registration_closed`, «Регистрация новых участников сейчас закрыта…») while
 * an admin has closed registration (docs/product/moderation.md#settings), Conflict (code
 * `username_taken` or `email_taken`, with the field's Russian error) when the username or email
 * is already used, case-insensitively, and the refusals of assertUsernameSafe
 * (`username_mixed_script`, `username_confusable`).
 */
export async function registerUser(db: Db, input: RegisterInput): Promise<UserRow> {
  await assertRegistrationOpen(db);
  await assertAvailable(db, input.username, input.email);
  const passwordHash = await hashPassword(input.password);
  try {
    const [user] = await db
      .insert(users)
      .values({ username: input.username, usernameSkeleton: usernameSkeleton(input.username), email: input.email, passwordHash })
      .returning();
    return user!;
  } catch (error) {
    // A concurrent registration won the race between the check and the insert.
    if (isUniqueViolation(error)) await assertAvailable(db, input.username, input.email);
    throw error;
  }
}

/**
 * Refuses a username that could pass for another member's (issue 13 item 10): Latin and Cyrillic
 * letters mixed (ValidationFailed `username_mixed_script`, 400) or the same confusable skeleton as
 * an existing name (Conflict `username_confusable`, 409), both on the field `username`. For
 * registration, renames and members created from Telegram; `exceptUserId` is the member renamed.
 */
export async function assertUsernameSafe(db: Db, username: string, exceptUserId?: number): Promise<void> {
  if (isMixedScript(username)) {
    throw new ValidationFailed(MIXED_SCRIPT_MESSAGE, { username: [MIXED_SCRIPT_MESSAGE] }, "username_mixed_script");
  }
  if (await usernameLookAlikeTaken(db, username, exceptUserId)) {
    const message = "Это имя слишком похоже на имя другого участника";
    throw new Conflict(message, "username_confusable", { username: [message] });
  }
}

async function assertAvailable(db: Db, username: string, email: string): Promise<void> {
  const taken = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username}) or lower(${users.email}) = lower(${email})`);
  if (taken.some((u) => u.username.toLowerCase() === username.toLowerCase())) {
    throw new Conflict("Это имя пользователя уже занято", "username_taken", {
      username: ["Это имя пользователя уже занято"],
    });
  }
  if (taken.length > 0) {
    throw new Conflict("Этот email уже зарегистрирован", "email_taken", {
      email: ["Этот email уже зарегистрирован"],
    });
  }
  await assertUsernameSafe(db, username);
}

/** The member whose email or username (case-insensitive) is `login`, or null. */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${login}) or lower(${users.username}) = lower(${login})`)
    .limit(1);
  return user ?? null;
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a sign-in: `login` is an email or a username (case-insensitive).
 * Returns the member, or null when no member matches or the password is wrong. Spends the
 * same argon2 time either way, so the answer's timing does not tell which accounts exist.
 */
export async function verifyCredentials(db: Db, login: string, password: string, user?: UserRow | null): Promise<UserRow | null> {
  const found = user === undefined ? await findUserByLogin(db, login) : user;
  if (!found?.passwordHash) {
    dummyHash ??= hashPassword(randomBytes(32).toString("base64url"));
    await verifyPassword(await dummyHash, password);
    return null;
  }
  return (await verifyPassword(found.passwordHash, password)) ? found : null;
}

export async function getUserById(db: Db, id: number): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

/**
 * Member `id`, for a page or call about them that needs nothing else of the profile (their post
 * list). Throws NotFound (`profile_not_found`) for an unknown or malformed id.
 */
export async function requireMember(db: Db, id: number): Promise<UserRow> {
  const user = isValidId(id) ? await getUserById(db, id) : null;
  if (!user) throw new NotFound("Пользователь не найден", "profile_not_found");
  return user;
}

/**
 * The public profile of member `id` with their post count.
 * Throws NotFound (`profile_not_found`) for an unknown id.
 */
export async function getProfile(db: Db, id: number): Promise<ProfileDto> {
  const user = await requireMember(db, id);
  // Posts everyone may see: not those a moderator deleted or reports hid (issue 10).
  const [counted] = await db
    .select({ value: count() })
    .from(posts)
    .where(and(eq(posts.authorId, id), isNull(posts.deletedAt), isNull(posts.hiddenAt)));
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    image: user.image,
    ranks: ranksOf(user),
    createdAt: user.createdAt.toISOString(),
    lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
    postCount: counted?.value ?? 0,
  };
}
