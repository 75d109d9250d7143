import express from "express";
import compression from "compression";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "node:http";
import { shouldCompress } from "./compression.js";

// A throwaway app with the server's compression middleware: an event stream must reach the
// client frame by frame, while an HTML page of the same size is gzipped.
let server: Server;
let base: string;
let releaseLastFrame = () => {};
beforeAll(async () => {
  const app = express();
  app.use(compression({ filter: shouldCompress }));
  app.get("/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.write(`data: ${"x".repeat(2000)}\n\n`);
    // The second frame is sent only after the client has seen the first.
    releaseLastFrame = () => res.end(`data: last\n\n`);
  });
  app.get("/page", (_req, res) => {
    res.type("html").send(`<p>${"текст ".repeat(1000)}</p>`);
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("compression (issue 2: never buffers text/event-stream)", () => {
  it("delivers the first event before the stream ends, uncompressed", async () => {
    const response = await fetch(`${base}/events`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBeNull();
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("data: xxx");
    releaseLastFrame();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain("data: last");
  });

  it("gzips an ordinary page", async () => {
    const response = await fetch(`${base}/page`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
  });
});
