/**
 * LISTEN/NOTIFY between two database handles on one PostgreSQL database: what two server
 * processes do (issue 4, "Across processes"). Runs only in the PostgreSQL step of the tests.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import type { RealtimeFrame } from "~/lib/realtime/frames";
import { realtimeHub, type RealtimeConnection } from "~/lib/realtime/hub.server";
import { waitFor } from "../setup/wait";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error("the cluster suite needs TEST_DATABASE_URL (a PostgreSQL server)");

describe("realtime pub/sub across database handles (PostgreSQL)", () => {
  const name = `cluster_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  let first: DatabaseHandle;
  let second: DatabaseHandle;

  beforeAll(async () => {
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    first = await openDatabase({ url: url.toString(), maxConnections: 3 });
    second = await openDatabase({ url: url.toString(), maxConnections: 3 });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  const listener = (userId: number) => {
    const frames: RealtimeFrame[] = [];
    const connection: RealtimeConnection = { userId, send: (frame) => void frames.push(frame), revoke: () => {} };
    return { connection, frames };
  };

  it("delivers frames published through one handle to subscribers of the other, in order", async () => {
    const remote = listener(1);
    const local = listener(2);
    realtimeHub(second.db).subscribe(remote.connection, { kind: "personal", conversationId: 3 });
    realtimeHub(first.db).subscribe(local.connection, { kind: "personal", conversationId: 3 });
    for (const n of [1, 2, 3]) await realtimeHub(first.db).publishToChannel({ kind: "personal", conversationId: 3 }, { n });
    await waitFor(() => remote.frames.length === 3 && local.frames.length === 3, "three frames on both handles");
    expect(remote.frames.map((frame) => frame.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(local.frames).toEqual(remote.frames);
  });

  it("keeps the publishing order when publishes overlap, a large stored frame included", async () => {
    // The event bus starts handlers without waiting for earlier ones (an edit then a delete).
    const remote = listener(7);
    realtimeHub(second.db).subscribe(remote.connection, { kind: "personal", conversationId: 9 });
    const large = "Ж".repeat(5000);
    const sizes = Array.from({ length: 30 }, (_, n) => (n % 7 === 3 ? large : String(n)));
    await Promise.all(sizes.map((text, n) => realtimeHub(first.db).publishToChannel({ kind: "personal", conversationId: 9 }, { n, text })));
    await waitFor(() => remote.frames.length === sizes.length, "every frame");
    expect(remote.frames.map((frame) => (frame.data as { n: number }).n)).toEqual(sizes.map((_, n) => n));
  });

  it("carries a frame above NOTIFY's 8000-byte limit through the realtime_frames table", async () => {
    const remote = listener(5);
    realtimeHub(second.db).subscribe(remote.connection, { kind: "notifications" });
    const text = "Ы".repeat(4000) + "ещё".repeat(500);
    await realtimeHub(first.db).publishToUser(5, { text });
    await waitFor(() => remote.frames.length === 1, "the large frame");
    expect(remote.frames[0]).toEqual({ channel: "notifications", data: { text } });
  });
});
