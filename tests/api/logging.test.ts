/**
 * The built server's log (issue 15): JSON lines, one per request with its id, nothing secret;
 * a cross-origin form post is one warn line rather than a stack trace (issue 13 point 8).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";
import { waitFor } from "../setup/wait";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "0" });
});
afterAll(async () => {
  await server?.stop();
});

/** The server's output as parsed JSON lines (production logs nothing else on stdout). */
function logLines(): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits for the request line of `reqId` (written when the response finishes). */
const requestLine = (reqId: string) =>
  waitFor(() => logLines().find((line) => line.reqId === reqId && typeof line.statusCode === "number"), `the log line of ${reqId}`);

describe("the production log", () => {
  it("is JSON lines, and says when the server listens", () => {
    const lines = logLines();
    expect(lines.find((line) => String(line.msg).startsWith("Server is listening"))).toMatchObject({ level: 30 });
  });

  it("logs a request with its id and without the cookie, the Authorization header or the api-token", async () => {
    const response = await fetch(`${server.baseUrl}/api/profile/notifications?api-token=SECRET-API-TOKEN-1&page=1`, {
      headers: { Cookie: "__session=SECRET-COOKIE-1", Authorization: "Bearer SECRET-AUTH-1" },
    });
    const reqId = response.headers.get("X-Request-Id");
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await requestLine(reqId!)).toMatchObject({
      method: "GET",
      url: "/api/profile/notifications?api-token=[redacted]&page=1",
      statusCode: response.status,
    });
    for (const secret of ["SECRET-API-TOKEN-1", "SECRET-COOKIE-1", "SECRET-AUTH-1"]) expect(server.output()).not.toContain(secret);
  });

  it("logs a cross-origin form post as one warn line, without a stack trace", async () => {
    const before = server.output().length;
    const response = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "someone@example.test", password: "SECRET-PASSWORD-1" }),
    });
    expect(response.status).toBe(400);
    const reqId = response.headers.get("X-Request-Id")!;
    await requestLine(reqId);
    const written = server.output().slice(before);
    const refusals = logLines().filter((line) => line.reqId === reqId && line.level === 40);
    expect(refusals).toEqual([
      expect.objectContaining({ msg: "cross-origin POST /auth/login from https://evil.example refused", origin: "https://evil.example" }),
    ]);
    expect(logLines().filter((line) => line.reqId === reqId && Number(line.level) >= 50)).toEqual([]);
    expect(written).not.toMatch(/\bat .+:\d+:\d+/);
    expect(written).not.toContain("SECRET-PASSWORD-1");
  });
});
