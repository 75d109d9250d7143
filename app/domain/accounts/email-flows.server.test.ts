import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "~/db/schema";
import { getUserById, verifyCredentials } from "~/domain/users/users.server";
import { mailDir, type StoredMail } from "~/lib/mail/mailer.server";
import { authenticateApiToken } from "~/lib/realtime/access.server";
import { openSession } from "~/lib/session.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { confirmEmailChange, requestEmailChange, requestPasswordReset, resetPassword, sendVerificationEmail, verifyEmail } from "./email-flows.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

/** The newest mail written to `to` (mail files sort by time), and the token of its link. */
async function lastMailTo(to: string): Promise<StoredMail & { token: string }> {
  const dir = mailDir();
  const names = (await readdir(dir))
    .filter((name) => name.endsWith(".json"))
    .sort()
    .reverse();
  for (const name of names) {
    const mail = JSON.parse(await readFile(path.join(dir, name), "utf8")) as StoredMail;
    if (mail.to === to) return { ...mail, token: new URL(mail.links[0]!).searchParams.get("token")! };
  }
  throw new Error(`no mail to ${to}`);
}

describe(`email flows on ${engine}`, () => {
  it("verification: the mailed link verifies the address once", async () => {
    const user = await makeUser(t.db);
    expect(user.emailVerified).toBe(false);
    await sendVerificationEmail(t.db, user);
    const mail = await lastMailTo(user.email);
    expect(mail.subject).toContain("Подтвердите email");
    expect(mail.links[0]).toMatch(/^https?:\/\/[^/]+\/auth\/email\/validate\?token=/);
    expect(mail.html).toContain("Подтвердить email");
    expect(await verifyEmail(t.db, mail.token)).toEqual({ userId: user.id });
    expect((await getUserById(t.db, user.id))!.emailVerified).toBe(true);
    await expect(verifyEmail(t.db, mail.token)).rejects.toMatchObject({ code: "token_used" });
  });

  it("password reset: unknown addresses send nothing; the link sets the password and signs out everywhere", async () => {
    expect(await requestPasswordReset(t.db, "nobody-here@example.test")).toBe(false);
    const user = await makeUser(t.db, { password: "old-password-1" });
    const { apiToken } = await openSession(t.db, user.id, {});
    expect(await requestPasswordReset(t.db, user.email.toUpperCase())).toBe(true);
    const mail = await lastMailTo(user.email);
    expect(mail.subject).toContain("Сброс пароля");
    await resetPassword(t.db, mail.token, "new-password-2");
    expect(await verifyCredentials(t.db, user.email, "new-password-2")).toMatchObject({ id: user.id, emailVerified: true });
    expect(await verifyCredentials(t.db, user.email, "old-password-1")).toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await authenticateApiToken(t.db, apiToken)).toBeNull();
    await expect(resetPassword(t.db, mail.token, "third-password-3")).rejects.toMatchObject({ code: "token_used" });
  });

  it("email change: needs the current password, mails the new address, changes only when confirmed", async () => {
    const user = await makeUser(t.db, { password: "my-password-1" });
    const newEmail = `changed_${user.username.toLowerCase()}@example.test`;
    await expect(requestEmailChange(t.db, user, newEmail, "wrong-password")).rejects.toMatchObject({ code: "wrong_password" });
    await expect(requestEmailChange(t.db, user, user.email, "my-password-1")).rejects.toMatchObject({ code: "same_email" });
    await requestEmailChange(t.db, user, newEmail, "my-password-1");
    const mail = await lastMailTo(newEmail);
    expect(mail.subject).toContain("новый email");
    expect((await getUserById(t.db, user.id))!.email).toBe(user.email);
    expect(await confirmEmailChange(t.db, mail.token)).toEqual({ userId: user.id, email: newEmail });
    expect(await getUserById(t.db, user.id)).toMatchObject({ email: newEmail, emailVerified: true });
    await expect(confirmEmailChange(t.db, mail.token)).rejects.toMatchObject({ code: "token_used" });
  });

  it("email change: an address another member has, case-insensitively, is refused, also when taken after the request", async () => {
    const user = await makeUser(t.db, { password: "my-password-1" });
    const other = await makeUser(t.db);
    await expect(requestEmailChange(t.db, user, other.email.toUpperCase(), "my-password-1")).rejects.toMatchObject({
      code: "email_taken",
      status: 409,
      message: "Этот email уже зарегистрирован",
    });
    const wanted = `wanted_${user.username.toLowerCase()}@example.test`;
    await requestEmailChange(t.db, user, wanted, "my-password-1");
    const mail = await lastMailTo(wanted);
    await t.db.update(users).set({ email: wanted.toUpperCase() }).where(eq(users.id, other.id));
    await expect(confirmEmailChange(t.db, mail.token)).rejects.toMatchObject({ code: "email_taken" });
    expect((await getUserById(t.db, user.id))!.email).toBe(user.email);
  });
});
