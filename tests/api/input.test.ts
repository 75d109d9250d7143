/**
 * A NUL byte anywhere in the input (issue 13 item 3) — a form field, a JSON body, a query string,
 * a websocket frame — is refused as bad input at one place (server/app.ts's request reading,
 * ws.server.ts's frame reading): 400 with the stable code `invalid_text` on /api, a Russian
 * message on pages, an error frame on the websocket; never a 500, never SQL in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SystemData } from "~/lib/realtime/frames";
import { isSystemError, openSse, openWs } from "../setup/realtime";
import { startServer, type RunningServer } from "../setup/server";
import { Client, csrfFromHtml } from "./client";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "0" });
});
afterAll(async () => {
  await server?.stop();
});

const NUL = "\u0000";

describe("a NUL byte in the input is refused as bad input (issue 13 item 3)", () => {
  it("in the login form: 400 with a Russian message", async () => {
    const client = new Client(server.baseUrl);
    const page = await (await client.fetch("/auth/login")).text();
    const response = await client.postForm("/auth/login", { csrf: csrfFromHtml(page), email: `admin${NUL}@example.test`, password: "whatever-123" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("недопустимые символы");
  });

  it("in the Auth.js-style sign-in call: 400 invalid_text", async () => {
    const client = new Client(server.baseUrl);
    const csrfToken = await client.csrfToken();
    const response = await client.postForm("/api/auth/callback/credentials", {
      csrfToken,
      email: `admin${NUL}`,
      password: "x",
      json: "true",
      callbackUrl: "/",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, errors: { code: "invalid_text" } });
  });

  it("in a JSON body: 400 invalid_text", async () => {
    const client = new Client(server.baseUrl);
    await client.register();
    const csrf = await client.csrfToken();
    const response = await client.fetch("/api/profile/conversation/group/1/messages", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ body: `привет${NUL}` }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { code: string } }).errors.code).toBe("invalid_text");
  });

  it("in the event stream's token and other query strings: 400 invalid_text", async () => {
    const stream = await openSse(`${server.baseUrl}/api/sse?type=notifications&api-token=${encodeURIComponent(`abcdefghijklmnopqrstuvwxyz${NUL}`)}`);
    expect(stream.status).toBe(400);
    expect(stream.body).toMatchObject({ errors: { code: "invalid_text" } });
    const search = await new Client(server.baseUrl).fetch(`/api/profiles/search?q=${encodeURIComponent(`adm${NUL}`)}`);
    expect(search.status).toBe(400);
  });

  it("in a websocket frame: an invalid_text error frame, and the socket stays usable", async () => {
    const socket = await openWs(`${server.baseUrl.replace(/^http/, "ws")}/api/ws`);
    socket.send({ type: "auth", apiToken: `abcdefghijklmnopqrstuvwxyz${NUL}` });
    const refused = await socket.next(isSystemError("invalid_text"), "the invalid_text frame");
    expect((refused.data as SystemData & { message: string }).message).toContain("недопустимые символы");
    socket.send({ type: "ping" });
    await socket.next((frame) => frame.channel === "system" && (frame.data as SystemData).type === "pong", "the pong");
    socket.close();
  });

  it("left nothing in the log but request lines: no 500, no SQL", () => {
    const log = server.output();
    expect(log).not.toMatch(/ 500 |invalid byte sequence|0x00|PostgresError|at async/);
  });
});
