/**
 * Test support for the moderation suites (issue 10): members with a role, members registered
 * long enough ago for their reports to count towards the hide threshold, and the audit entries
 * written about a target.
 */
import { and, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "~/db/client.server";
import { auditLog, users, type AuditAction } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { AppError } from "~/lib/errors";
import { openSession } from "~/lib/session.server";
import { makeUser } from "./factories";

/** A new member with `role`, read back as stored, signed in once (a session and its realtime apiToken). */
export async function makeMember(db: Db, role: UserRow["role"] = "member"): Promise<UserRow & { sessionId: string; apiToken: string }> {
  const user = await makeUser(db);
  const session = await openSession(db, user.id, { method: "password" });
  if (role === "member") return { ...user, ...session };
  const [updated] = await db.update(users).set({ role }).where(eq(users.id, user.id)).returning();
  return { ...updated!, ...session };
}

/** A member registered `days` days ago (reports of members registered 7+ days ago count towards hiding). */
export async function makeSeasonedMember(db: Db, days = 30): Promise<UserRow> {
  const user = await makeUser(db);
  const [updated] = await db
    .update(users)
    .set({ createdAt: new Date(Date.now() - days * 86_400_000) })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

/** The member `id` as stored now. */
export async function reload(db: Db, id: number): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row!;
}

/** Audit entries with `action`, newest first, optionally about member `targetUserId`. */
export async function auditEntries(db: Db, action: AuditAction, targetUserId?: number) {
  return db
    .select()
    .from(auditLog)
    .where(targetUserId === undefined ? eq(auditLog.action, action) : and(eq(auditLog.action, action), eq(auditLog.targetUserId, targetUserId)))
    .orderBy(desc(auditLog.id));
}

/** The AppError `run` rejects with; fails the test when it resolves or throws anything else. */
export async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
