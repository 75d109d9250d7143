import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens } from "~/db/schema";
import { ValidationFailed } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { consumeAccountToken, createAccountToken, hashToken, inspectAccountToken, TOKEN_TTL_MS } from "./tokens.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function refusalCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationFailed);
  return (error as ValidationFailed).code;
}

describe(`account tokens on ${engine}`, () => {
  it("stores only the SHA-256 of a 32-byte base64url token, expiring after the purpose's time", async () => {
    const user = await makeUser(t.db);
    const before = Date.now();
    const token = await createAccountToken(t.db, user.id, "email_verify");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(token));
    expect(rows[0]!.tokenHash).not.toContain(token);
    const ttl = rows[0]!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThanOrEqual(TOKEN_TTL_MS.email_verify - 1000);
    expect(ttl).toBeLessThanOrEqual(TOKEN_TTL_MS.email_verify + 5000);
    expect(TOKEN_TTL_MS).toEqual({ email_verify: 48 * 3600_000, password_reset: 3600_000, email_change: 24 * 3600_000 });
  });

  it("a token works once: the second use is refused as used", async () => {
    const user = await makeUser(t.db);
    const token = await createAccountToken(t.db, user.id, "password_reset");
    expect(await consumeAccountToken(t.db, token, "password_reset")).toEqual({ userId: user.id, newEmail: null });
    expect(await refusalCode(consumeAccountToken(t.db, token, "password_reset"))).toBe("token_used");
  });

  it("an expired token is refused and stays unused", async () => {
    const user = await makeUser(t.db);
    const token = await createAccountToken(t.db, user.id, "password_reset", { now: Date.now() - TOKEN_TTL_MS.password_reset - 60_000 });
    expect(await refusalCode(consumeAccountToken(t.db, token, "password_reset"))).toBe("token_expired");
    const [row] = await t.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect(row!.usedAt).toBeNull();
  });

  it("a token of another purpose, an unknown or a malformed token is invalid and nothing is used", async () => {
    const user = await makeUser(t.db);
    const token = await createAccountToken(t.db, user.id, "email_verify");
    expect(await refusalCode(consumeAccountToken(t.db, token, "password_reset"))).toBe("token_invalid");
    expect(await refusalCode(consumeAccountToken(t.db, "A".repeat(43), "email_verify"))).toBe("token_invalid");
    expect(await refusalCode(consumeAccountToken(t.db, "not a token; drop table users", "email_verify"))).toBe("token_invalid");
    expect(await refusalCode(consumeAccountToken(t.db, undefined, "email_verify"))).toBe("token_invalid");
    expect(await consumeAccountToken(t.db, token, "email_verify")).toEqual({ userId: user.id, newEmail: null });
  });

  it("of two concurrent uses of one token exactly one wins", async () => {
    const user = await makeUser(t.db);
    const token = await createAccountToken(t.db, user.id, "email_change", { newEmail: "new-address@example.test" });
    const results = await Promise.allSettled([
      consumeAccountToken(t.db, token, "email_change"),
      consumeAccountToken(t.db, token, "email_change"),
      consumeAccountToken(t.db, token, "email_change"),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    expect((won[0] as PromiseFulfilledResult<unknown>).value).toEqual({ userId: user.id, newEmail: "new-address@example.test" });
    for (const lost of results.filter((r) => r.status === "rejected")) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: "token_used" });
    }
  });

  it("a new reset link makes older unused ones stop working; verification links stay valid", async () => {
    const user = await makeUser(t.db);
    const first = await createAccountToken(t.db, user.id, "password_reset");
    const second = await createAccountToken(t.db, user.id, "password_reset");
    expect(await refusalCode(consumeAccountToken(t.db, first, "password_reset"))).toBe("token_invalid");
    expect((await consumeAccountToken(t.db, second, "password_reset")).userId).toBe(user.id);

    const verifyA = await createAccountToken(t.db, user.id, "email_verify");
    const verifyB = await createAccountToken(t.db, user.id, "email_verify");
    expect((await consumeAccountToken(t.db, verifyA, "email_verify")).userId).toBe(user.id);
    expect((await consumeAccountToken(t.db, verifyB, "email_verify")).userId).toBe(user.id);
  });

  it("inspecting a token does not use it", async () => {
    const user = await makeUser(t.db);
    const token = await createAccountToken(t.db, user.id, "email_change", { newEmail: "look@example.test" });
    expect(await inspectAccountToken(t.db, token, "email_change")).toEqual({ userId: user.id, newEmail: "look@example.test" });
    expect(await inspectAccountToken(t.db, token, "email_change")).toEqual({ userId: user.id, newEmail: "look@example.test" });
    await consumeAccountToken(t.db, token, "email_change");
    expect(await refusalCode(inspectAccountToken(t.db, token, "email_change"))).toBe("token_used");
  });
});
