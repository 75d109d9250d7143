/**
 * Backpressure on the websocket (docs/product/realtime.md#backpressure, issue 13): a client that
 * stops reading must not make the server buffer frames for it without bound. Once its unsent
 * bytes pass the cap (lowered here from WS_LIMITS.maxBufferedBytes so the test pushes a few
 * megabytes, not tens) it is terminated at the next frame meant for it, while a client that
 * reads keeps receiving every frame.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/factories";
import { openWs } from "../../../tests/setup/realtime";
import { isData } from "../../../tests/setup/realtime-access";
import { realtimeHub } from "./hub.server";
import { attachWebSocketServer, WS_LIMITS, type WebSocketTransport } from "./ws.server";

const CAP_BYTES = 64 * 1024;
/** Each frame's filler: under NOTIFY's 8000-byte payload on PostgreSQL, so every publish is one NOTIFY. */
const FILLER = "ж".repeat(3000);
/** Far more than the kernel's socket buffers on both ends and the cap together (about 18 MB). */
const MAX_FRAMES = 3000;

describe(`websocket backpressure (${engine})`, () => {
  let database: TestDatabase;
  let server: Server;
  let transport: WebSocketTransport;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase({ migrateOwn: true });
    server = createServer((_req, res) => res.writeHead(404).end());
    transport = attachWebSocketServer(server, async () => database.db, { maxBufferedBytes: CAP_BYTES });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/ws`;
  });
  afterAll(async () => {
    transport.close();
    await new Promise((resolve) => server.close(resolve));
    await database.destroy();
  });

  it("the production cap is 4 MB", () => {
    expect(WS_LIMITS.maxBufferedBytes).toBe(4 * 1024 * 1024);
  });

  it("terminates a reader that stops reading once its unsent frames pass the cap; a reader that reads gets every frame", async () => {
    const member = await makeMember(database.db);
    const slow = await openWs(url);
    const reader = await openWs(url);
    for (const client of [slow, reader]) {
      await client.auth(member.apiToken);
      expect(await client.subscribe("notifications")).toMatchObject({ type: "subscribed" });
    }
    expect(transport.clientCount()).toBe(2);

    // The slow client stops reading: what the server sends piles up in the kernel, then in its write queue.
    slow.socket.pause();
    const hub = realtimeHub(database.db);
    let published = 0;
    while (transport.clientCount() === 2 && published < MAX_FRAMES) {
      await hub.publishToUser(member.id, { type: "bulk", n: published, filler: FILLER });
      published += 1;
      // Let the sockets write and the reader read before the next frame.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(transport.clientCount(), "the slow reader was dropped").toBe(1);
    expect(published).toBeLessThan(MAX_FRAMES);

    // The reader kept up: it has every frame, and receives the next one too.
    await hub.publishToUser(member.id, { type: "after" });
    await reader.next(isData("after"), "the frame published after the drop");
    expect(reader.frames.filter(isData("bulk"))).toHaveLength(published);
    expect(reader.closed).toBeNull();

    // The slow client, reading again, finds its connection cut (no close frame: it would have queued behind the backlog).
    slow.socket.resume();
    expect((await slow.waitClosed()).code).toBe(1006);
    expect(slow.frames.filter(isData("bulk")).length).toBeLessThan(published);
    reader.close();
  });
});
