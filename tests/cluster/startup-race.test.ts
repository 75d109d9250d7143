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

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error("the cluster suite needs TEST_DATABASE_URL (a PostgreSQL server)");

describe("two server processes starting together on one empty PostgreSQL database", () => {
  const name = `cluster_race_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // SEED_DEMO=1: both find the database empty, so the seeding must not race either.
  const env = { DATABASE_URL: url.toString(), SEED_DEMO: "1", SESSION_SECRET: randomBytes(32).toString("hex") };
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    await admin.unsafe(`create database "${name}"`);
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    for (const outcome of started) if (outcome.status === "fulfilled") servers.push(outcome.value);
    for (const outcome of started) if (outcome.status === "rejected") throw outcome.reason;
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("both come up and serve pages of the seeded community", async () => {
    expect(servers).toHaveLength(2);
    const database = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const [moderator] = await database`select id, username from users where email = 'moderator@shodka.local'`.finally(() => database.end());
    expect(moderator).toBeDefined();
    for (const server of servers) {
      expect((await fetch(`${server.baseUrl}/`)).status, server.baseUrl).toBe(200);
      const profile = await fetch(`${server.baseUrl}/profile/${moderator!.id}`);
      expect(profile.status, server.baseUrl).toBe(200);
      expect(await profile.text()).toContain(moderator!.username);
    }
  });

  it("applied every migration once and seeded the demo community once", async () => {
    const database = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const [migrations] = await database`select count(*)::int as applied, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`;
      expect(migrations!.applied).toBeGreaterThan(0);
      expect(migrations!.applied).toBe(migrations!.distinct);
      const [users] = await database`select count(*)::int as members from users`;
      const [demo] = await database`select count(*)::int as accounts from users where email = 'demo@shodka.local'`;
      expect(demo!.accounts).toBe(1);
      expect(users!.members).toBeGreaterThanOrEqual(37);
    } finally {
      await database.end();
    }
  });
});
