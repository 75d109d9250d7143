/**
 * The email flows of issue 6 "Email": address verification after registration, password
 * reset and email change, each through a single-use expiring token (tokens.server.ts) and a
 * mail (app/lib/mail). Every effect is applied in the transaction that uses its token.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { users } from "~/db/schema";
import { deleteSessionsOf, endAllSessions } from "~/domain/users/sessions.server";
import type { UserRow } from "~/domain/users/users.server";
import { Conflict, ValidationFailed } from "~/lib/errors";
import { sendMail } from "~/lib/mail/mailer.server";
import { emailChangeMail, passwordResetMail, verificationMail } from "~/lib/mail/messages.server";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { consumeAccountToken, createAccountToken } from "./tokens.server";

const EMAIL_TAKEN = "Этот email уже зарегистрирован";

/**
 * Mails `user` a link to /auth/email/validate (valid 48 h). Throws MailFailed (503
 * `mail_failed`) when SMTP refuses. Callers that send mail on a visitor's request apply
 * consumeMailLimit first.
 */
export async function sendVerificationEmail(db: Db, user: Pick<UserRow, "id" | "email" | "username">): Promise<void> {
  const token = await createAccountToken(db, user.id, "email_verify");
  await sendMail(verificationMail(user.email, user.username, token));
}

/**
 * Verifies the member's address with an email_verify `token`: sets users.email_verified.
 * Returns the member's id. Throws ValidationFailed `token_invalid` / `token_used` / `token_expired`.
 * A token mailed to an address the member has since changed verifies nothing new but is used up.
 */
export async function verifyEmail(db: Db, token: unknown): Promise<{ userId: number }> {
  return db.transaction(async (tx) => {
    const grant = await consumeAccountToken(tx, token, "email_verify");
    await tx.update(users).set({ emailVerified: true }).where(eq(users.id, grant.userId));
    return { userId: grant.userId };
  });
}

/**
 * Starts a password reset for `email`: when a member has that address (case-insensitive) they
 * get a link to /auth/password/reset (valid 1 h; older reset links stop working). Resolves the
 * same way whether or not the address exists, so the answer reveals no accounts. Returns
 * whether a mail was sent (for tests and logs only, never shown to the visitor).
 */
export async function requestPasswordReset(db: Db, email: string): Promise<boolean> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  if (!user) return false;
  const token = await createAccountToken(db, user.id, "password_reset");
  await sendMail(passwordResetMail(user.email, user.username, token));
  return true;
}

/**
 * Sets a new password with a password_reset `token` (hashed with argon2id as registration
 * does), marks the address verified (the member read mail sent to it), then ends every
 * session of the member with their apiTokens and open realtime connections (endAllSessions):
 * signed out everywhere. Returns the member's id.
 * Throws ValidationFailed `token_invalid` / `token_used` / `token_expired`.
 */
export async function resetPassword(db: Db, token: unknown, newPassword: string): Promise<{ userId: number }> {
  const passwordHash = await hashPassword(newPassword);
  const result = await db.transaction(async (tx) => {
    const grant = await consumeAccountToken(tx, token, "password_reset");
    await tx.update(users).set({ passwordHash, emailVerified: true }).where(eq(users.id, grant.userId));
    await deleteSessionsOf(tx, grant.userId);
    return { userId: grant.userId };
  });
  // After the commit: closes every open realtime connection (and ends a session opened meanwhile).
  await endAllSessions(db, result.userId);
  return result;
}

/**
 * Asks to change `user`'s address to `newEmail` (already trimmed and lower-cased by
 * EmailSchema): checks the current password, then mails a link to the NEW address (valid
 * 24 h; older change links stop working). The address changes only when the link is followed.
 * Throws ValidationFailed `wrong_password` (field currentPassword), `same_email` (field email),
 * Conflict `email_taken` (409, field email) when another member has the address.
 */
export async function requestEmailChange(db: Db, user: UserRow, newEmail: string, currentPassword: string): Promise<void> {
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new ValidationFailed("Неверный пароль", { currentPassword: ["Неверный пароль"] }, "wrong_password");
  }
  if (newEmail.toLowerCase() === user.email.toLowerCase()) {
    throw new ValidationFailed("Это ваш текущий email", { email: ["Это ваш текущий email"] }, "same_email");
  }
  await assertEmailFree(db, newEmail, user.id);
  const token = await createAccountToken(db, user.id, "email_change", { newEmail });
  await sendMail(emailChangeMail(newEmail, user.username, token));
}

/**
 * Applies an email_change `token`: the member's address becomes the token's new address,
 * verified. Returns the member's id and the new address.
 * Throws ValidationFailed `token_invalid` / `token_used` / `token_expired`, or Conflict
 * `email_taken` (409) when another member took the address meanwhile (the token stays unused).
 */
export async function confirmEmailChange(db: Db, token: unknown): Promise<{ userId: number; email: string }> {
  try {
    return await db.transaction(async (tx) => {
      const grant = await consumeAccountToken(tx, token, "email_change");
      const email = grant.newEmail!;
      await assertEmailFree(tx, email, grant.userId);
      await tx.update(users).set({ email, emailVerified: true }).where(eq(users.id, grant.userId));
      return { userId: grant.userId, email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

async function assertEmailFree(db: Db, email: string, exceptUserId: number): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) and ${users.id} <> ${exceptUserId}`)
    .limit(1);
  if (taken) throw emailTaken();
}

function emailTaken(): Conflict {
  return new Conflict(EMAIL_TAKEN, "email_taken", { email: [EMAIL_TAKEN] });
}
