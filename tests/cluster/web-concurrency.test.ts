/**
 * WEB_CONCURRENCY=2 (docs/product/engineering.md#speed; issue 12): two node:cluster workers
 * share the port, both answer requests, and the service stops cleanly on SIGTERM. A built
 * server on its own PostgreSQL database (workers need DATABASE_URL).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";
import { waitFor } from "../setup/wait";
import { scratchDatabase } from "./scratch-database";

/** The pids of the JSON log lines that match `test`. */
function pidsOf(output: string, test: (line: Record<string, unknown>) => boolean): Set<number> {
  const pids = new Set<number>();
  for (const text of output.split("\n")) {
    if (!text.startsWith("{")) continue;
    const line = JSON.parse(text) as Record<string, unknown>;
    if (test(line)) pids.add(Number(line.pid));
  }
  return pids;
}

describe("WEB_CONCURRENCY=2 (issue 12)", () => {
  const database = scratchDatabase("cluster_wc");
  let server: RunningServer;

  beforeAll(async () => {
    await database.create();
    server = await startServer({ DATABASE_URL: database.url, SEED_DEMO: "0", SESSION_SECRET: randomBytes(32).toString("hex"), WEB_CONCURRENCY: "2" });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database.drop();
  });

  it("runs two workers that both answer on the one port, and stops on SIGTERM", async () => {
    await waitFor(() => pidsOf(server.output(), (line) => String(line.msg).startsWith("Server is listening")).size === 2, "both workers listening");
    const workers = pidsOf(server.output(), (line) => String(line.msg).startsWith("Server is listening"));
    expect(workers.has(server.process.pid!)).toBe(false);

    // New connections are dealt round-robin between the workers.
    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${server.baseUrl}/api/build`, { headers: { Connection: "close" } });
      expect(response.status).toBe(200);
      await response.text();
    }
    await waitFor(() => pidsOf(server.output(), (line) => line.url === "/api/build").size === 2, "requests served by both workers");
    expect(pidsOf(server.output(), (line) => line.url === "/api/build")).toEqual(workers);

    expect(await server.stop()).toBe(0);
  });
});
