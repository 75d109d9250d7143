/**
 * A freshly migrated database per test file (docs/product/engineering.md#tests): in-memory PGlite by
 * default, or a new database on the PostgreSQL server of TEST_DATABASE_URL, dropped after.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";

export interface TestDatabase extends DatabaseHandle {
  /** Closes the connection and drops the PostgreSQL database it used. */
  destroy(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase();
    return { ...handle, destroy: handle.close };
  }
  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 5 });
  return {
    ...handle,
    async destroy() {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** The engine the domain suite runs on, for test names. */
export const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
