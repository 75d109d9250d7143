/**
 * The request log (issue 15): one line per request with an id, nothing secret in it, the id
 * answered in X-Request-Id and carried by every line logged while the request runs.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, currentLogger, REDACTED } from "../app/lib/logger.server";
import { logWhenSent, requestLogging, unhandledErrors } from "./http-logger";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An Express app behind the request log, as server/index.js mounts it; resolves with its URL and the captured lines. */
async function serve(trustProxy: string | boolean) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(requestLogging(logger, { ignore: (req) => req.url?.startsWith("/assets/") ?? false }));
  app.get("/api/sse", async (_req, res) => {
    await new Promise((resolve) => setImmediate(resolve));
    // Far from the request object, after an await: the current logger still knows the request.
    currentLogger().warn("inside the handler");
    res.type("text/plain").send("ok");
  });
  app.get("/boom", () => {
    throw new Error("handler exploded");
  });
  app.get("/assets/app.js", (_req, res) => res.send("js"));
  app.use(unhandledErrors);
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines };
}

/** Waits until the response line of the request has been written (it is logged when the response finishes). */
async function lineFor(lines: Record<string, unknown>[], reqId: string) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const line = lines.find((entry) => entry.reqId === reqId && typeof entry.statusCode === "number");
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no request line for ${reqId}: ${JSON.stringify(lines)}`);
}

describe("request log", () => {
  it("shows no cookie, Authorization, CSRF token or api-token, and ties every line to the request id", async () => {
    const { url, lines } = await serve("loopback");
    const response = await fetch(`${url}/api/sse?type=personal&id=5&api-token=SECRET-API-TOKEN`, {
      headers: { Cookie: "__session=SECRET-COOKIE", Authorization: "tma SECRET-INIT-DATA", "X-CSRF-Token": "SECRET-CSRF" },
    });
    expect(response.status).toBe(200);
    const reqId = response.headers.get("X-Request-Id");
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineFor(lines, reqId!);
    expect(line).toMatchObject({ level: 30, method: "GET", url: `/api/sse?type=personal&id=5&api-token=${REDACTED}`, statusCode: 200 });
    expect(line.msg).toBe(`GET /api/sse?type=personal&id=5&api-token=${REDACTED} 200 ${line.responseTime}ms`);
    expect(lines.find((entry) => entry.msg === "inside the handler")).toMatchObject({ level: 40, reqId });
    const everything = JSON.stringify(lines);
    for (const secret of ["SECRET-API-TOKEN", "SECRET-COOKIE", "SECRET-INIT-DATA", "SECRET-CSRF"]) expect(everything).not.toContain(secret);
  });

  it("honours a trusted proxy's X-Request-Id, and makes its own otherwise", async () => {
    const trusted = await serve("loopback");
    const passed = await fetch(`${trusted.url}/api/sse`, { headers: { "X-Request-Id": "edge-42.abc" } });
    expect(passed.headers.get("X-Request-Id")).toBe("edge-42.abc");
    expect(await lineFor(trusted.lines, "edge-42.abc")).toMatchObject({ statusCode: 200 });
    // An id that could forge log lines is replaced even from a trusted proxy.
    const forged = await fetch(`${trusted.url}/api/sse`, { headers: { "X-Request-Id": 'x" level=fatal' } });
    expect(forged.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);

    const untrusted = await serve(false);
    const ignored = await fetch(`${untrusted.url}/api/sse`, { headers: { "X-Request-Id": "edge-42.abc" } });
    expect(ignored.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs a failed request at error with the error, and skips static assets", async () => {
    const { url, lines } = await serve("loopback");
    expect((await fetch(`${url}/assets/app.js`)).status).toBe(200);
    const failed = await fetch(`${url}/boom`);
    expect(failed.status).toBe(500);
    const line = await lineFor(lines, failed.headers.get("X-Request-Id")!);
    expect(line).toMatchObject({ level: 50, statusCode: 500, err: { message: "handler exploded" } });
    expect(lines.some((entry) => String(entry.url).startsWith("/assets/"))).toBe(false);
  });

  it("logs a request answered before Express at the same levels: info, or error for a 5xx", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const server = createServer((req, res) => {
      const reqId = req.url === "/fails" ? "fails-1" : "works-1";
      logWhenSent(logger, req, res, { reqId, ip: "127.0.0.1", startedAt: Date.now() });
      res.statusCode = req.url === "/fails" ? 500 : 200;
      res.end();
    }).listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${url}/works`)).status).toBe(200);
    expect((await fetch(`${url}/fails`)).status).toBe(500);
    expect(await lineFor(lines, "works-1")).toMatchObject({ level: 30, method: "GET", url: "/works", statusCode: 200 });
    expect(await lineFor(lines, "fails-1")).toMatchObject({ level: 50, method: "GET", url: "/fails", statusCode: 500 });
  });
});
