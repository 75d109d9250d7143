/**
 * Two server processes started at the same moment on one empty PostgreSQL database (issue 15:
 * "two processes started at the same moment on an empty PostgreSQL database both come up").
 * Without a lock both apply the migrations and seed the demo community at once, and one of
 * them dies on a duplicate schema, table or username. Runs only in the PostgreSQL step of the
 * tests (scripts/test.sh), on a built server.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";
import { scratchDatabase } from "./scratch-database";

describe("two server processes starting together on one empty PostgreSQL database", () => {
  const database = scratchDatabase("cluster_race");
  // SEED_DEMO=1: both find the database empty, so the seeding must not race either.
  const env = { DATABASE_URL: database.url, SEED_DEMO: "1", SESSION_SECRET: randomBytes(32).toString("hex") };
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    await database.create();
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    for (const outcome of started) if (outcome.status === "fulfilled") servers.push(outcome.value);
    for (const outcome of started) if (outcome.status === "rejected") throw outcome.reason;
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await database.drop();
  });

  it("both come up and serve pages of the seeded community", async () => {
    expect(servers).toHaveLength(2);
    const connection = postgres(database.url, { max: 1, onnotice: () => {} });
    const [moderator] = await connection`select id, username from users where email = 'moderator@shodka.local'`.finally(() => connection.end());
    expect(moderator).toBeDefined();
    for (const server of servers) {
      expect((await fetch(`${server.baseUrl}/`)).status, server.baseUrl).toBe(200);
      const profile = await fetch(`${server.baseUrl}/profile/${moderator!.id}`);
      expect(profile.status, server.baseUrl).toBe(200);
      expect(await profile.text()).toContain(moderator!.username);
    }
  });

  it("applied every migration once and seeded the demo community once", async () => {
    const connection = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [migrations] = await connection`select count(*)::int as applied, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`;
      expect(migrations!.applied).toBeGreaterThan(0);
      expect(migrations!.applied).toBe(migrations!.distinct);
      const [users] = await connection`select count(*)::int as members from users`;
      const [demo] = await connection`select count(*)::int as accounts from users where email = 'demo@shodka.local'`;
      expect(demo!.accounts).toBe(1);
      expect(users!.members).toBeGreaterThanOrEqual(37);
    } finally {
      await connection.end();
    }
  });
});
