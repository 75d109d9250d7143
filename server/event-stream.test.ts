/**
 * Event streams written beside the router (server/event-stream.ts): the stream carries the
 * subscription frame, then the channel's frames, as text/event-stream; a refused request gets the
 * JSON envelope; a reader that stops reading is dropped once its unsent bytes pass the cap (lowered
 * here from MAX_EVENT_STREAM_BUFFER_BYTES), while a reader
 * that reads keeps receiving every frame.
 */
import { request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realtimeHub } from "~/lib/realtime/hub.server";
import { closeEventStreams, openEventStreamCount } from "~/lib/realtime/sse.server";
import { createTestDatabase, engine, type TestDatabase } from "../tests/setup/database";
import { makeMember } from "../tests/setup/factories";
import { serveEventStream } from "./event-stream";

/**
 * The cap in this test: far under the kernel's buffers and MAX_FRAMES' total, yet far over a burst
 * the reading client may momentarily leave unsent while the test process, which also reads, is
 * busy (the cap counts bytes: 64 KB was 11 frames of FILLER and dropped the reader too under load).
 */
const CAP_BYTES = 512 * 1024;
/** Each frame's filler: under NOTIFY's 8000-byte payload on PostgreSQL, so every publish is one NOTIFY. */
const FILLER = "ж".repeat(3000);
/** Far more than the kernel's socket buffers on both ends and the cap together (about 18 MB). */
const MAX_FRAMES = 3000;

/** An open GET of `url`: its response, and the text read so far (unless paused). */
async function openStream(url: string): Promise<{ response: IncomingMessage; text: () => string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    request(url, (response) => {
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("error", () => undefined);
      resolve({ response, text: () => text });
    })
      .on("error", reject)
      .end();
  });
}

/** Resolves once `check` holds, polling on the event loop (no fixed sleep). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe(`event streams beside the router (${engine})`, () => {
  let database: TestDatabase;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase({ migrateOwn: true });
    const app = express();
    app.get("/api/sse", (req, res) => void serveEventStream(database.db, { url: req.originalUrl, clientAddress: req.ip ?? "unknown" }, res, CAP_BYTES));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    closeEventStreams();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await database.destroy();
  });

  it("refuses a bad token with the JSON envelope, and streams the member's notifications as events", async () => {
    const refused = await openStream(`${base}/api/sse?type=notifications&api-token=nope`);
    await until(() => refused.response.complete, "the refusal's body");
    expect(refused.response.statusCode).toBe(401);
    expect(JSON.parse(refused.text())).toMatchObject({ success: false, errors: { code: "invalid_token" } });

    const member = await makeMember(database.db);
    const stream = await openStream(`${base}/api/sse?type=notifications&api-token=${member.apiToken}`);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers["content-type"]).toMatch(/^text\/event-stream/);
    await until(() => stream.text().includes('"subscribed"'), "the subscription frame");
    await realtimeHub(database.db).publishToUser(member.id, { type: "hello", text: "Привет" });
    await until(() => stream.text().includes('"hello"'), "the published frame");
    expect(stream.text()).toMatch(/event: message\ndata: \{"channel":"notifications","data":\{"type":"hello","text":"Привет"\}\}\n\n/);
    stream.response.destroy();
    await until(() => openEventStreamCount() === 0, "the stream's cleanup after the client left");
  });

  it("drops a reader that stops reading once its unsent bytes pass the cap; a reader that reads gets every frame", async () => {
    const member = await makeMember(database.db);
    const url = `${base}/api/sse?type=notifications&api-token=${member.apiToken}`;
    const slow = await openStream(url);
    const reader = await openStream(url);
    await until(() => reader.text().includes('"subscribed"') && slow.text().includes('"subscribed"'), "both subscriptions");
    expect(openEventStreamCount()).toBe(2);

    // The slow client stops reading: what the server sends piles up in the kernel, then in its write queue.
    slow.response.pause();
    const hub = realtimeHub(database.db);
    let published = 0;
    while (openEventStreamCount() === 2 && published < MAX_FRAMES) {
      await hub.publishToUser(member.id, { type: "bulk", n: published, filler: FILLER });
      published += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(openEventStreamCount(), "the slow reader was dropped").toBe(1);
    expect(published).toBeLessThan(MAX_FRAMES);

    await hub.publishToUser(member.id, { type: "after" });
    await until(() => reader.text().includes('"after"'), "the frame published after the drop");
    expect(reader.text().match(/"type":"bulk"/g)).toHaveLength(published);
    reader.response.destroy();
  });
});
