import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~/db/schema";
import { createTestDatabase, engine, type TestDatabase } from "../../tests/setup/database";
import { makeUser } from "../../tests/setup/factories";
import { createLogger, REDACTED, redactUrl, serializeError } from "./logger.server";

/** A logger writing JSON lines into an array. */
function capture() {
  const lines: string[] = [];
  const log = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(line) } });
  return { log, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("redactUrl", () => {
  it("masks the values of secret query parameters and keeps the rest", () => {
    expect(redactUrl("/api/sse?type=personal&id=3&api-token=abc123")).toBe(`/api/sse?type=personal&id=3&api-token=${REDACTED}`);
    expect(redactUrl("/auth/password/reset?token=t0k3n")).toBe(`/auth/password/reset?token=${REDACTED}`);
    expect(redactUrl("/x?apiToken=1&password=2&csrf=3&page=4")).toBe(`/x?apiToken=${REDACTED}&password=${REDACTED}&csrf=${REDACTED}&page=4`);
    expect(redactUrl("/api%2Dtoken?api%2Dtoken=abc")).toBe(`/api%2Dtoken?api%2Dtoken=${REDACTED}`);
    expect(redactUrl("/search?q=token")).toBe("/search?q=token");
    expect(redactUrl("/plain")).toBe("/plain");
  });
});

describe("the logger censors secret fields", () => {
  it("at the top level and one level down", () => {
    const { log, lines } = capture();
    log.info({ password: "hunter2", user: { id: 7, apiToken: "tok-123", newPassword: "n3w" }, csrf: "c5rf", session: { cookie: "sid=abc" } }, "signed in");
    const line = lines.join("");
    for (const secret of ["hunter2", "tok-123", "n3w", "c5rf", "sid=abc"]) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ password: REDACTED, user: { id: 7, apiToken: REDACTED }, msg: "signed in" });
  });
});

describe(`database errors are logged without SQL parameters (${engine})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.destroy();
  });

  it("keeps the code, constraint and message of a duplicate insert, not its values", async () => {
    const member = await makeUser(t.db, { email: "private.person@example.test" });
    const failure = await t.db
      .insert(users)
      .values({ username: `${member.username}_2`, email: "PRIVATE.PERSON@example.test", passwordHash: "argon2-hash-value", usernameSkeleton: "skeleton-value" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    // What drizzle throws really does carry the values: the point of the serializer.
    expect(JSON.stringify({ message: (failure as Error).message, stack: (failure as Error).stack })).toContain("PRIVATE.PERSON@example.test");

    const { log, lines } = capture();
    log.error({ err: failure }, "registration failed");
    const line = lines.join("");
    expect(line).not.toMatch(/private\.person@example\.test/i);
    expect(line).not.toContain("argon2-hash-value");
    expect(line).not.toContain("skeleton-value");
    const logged = JSON.parse(line) as { err: { message: string; stack: string; cause?: { code?: string; message?: string } } };
    expect(logged.err.message).toMatch(/^Failed query: insert into "users"/);
    expect(logged.err.stack).toMatch(/\n\s+at /);
    expect(logged.err.cause).toMatchObject({ code: "23505", message: expect.stringContaining("duplicate key value violates unique constraint") });
  });

  it("serializes a plain error with its code and cause", () => {
    const error = Object.assign(new Error("outer", { cause: new Error("inner") }), { code: "E_OUTER", params: ["secret-param"] });
    const serialized = serializeError(error);
    expect(serialized).toMatchObject({ type: "Error", message: "outer", code: "E_OUTER", cause: { message: "inner" } });
    expect(JSON.stringify(serialized)).not.toContain("secret-param");
  });
});
