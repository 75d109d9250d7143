/**
 * A freshly migrated database per test file (docs/product/engineering.md#tests): in-memory PGlite by
 * default, or a new database on the PostgreSQL server of TEST_DATABASE_URL, dropped after.
 *
 * Migrating takes seconds, so the domain project migrates once (tests/setup/domain-global.ts) and
 * every file starts from a copy of that database: PGlite loads the dumped data directory,
 * PostgreSQL runs `CREATE DATABASE … TEMPLATE`. The copy still goes through openDatabase, whose
 * migrator finds every migration applied. Without a template (another project, or a test run
 * outside Vitest's global setup) each file migrates its own database as before.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from "~/db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template of this run: a PGlite dump file, or a PostgreSQL database name. */
    databaseTemplate?: { kind: "pglite"; file: string } | { kind: "postgres"; name: string };
  }
}

export interface TestDatabase extends DatabaseHandle {
  /** Closes the connection and drops the PostgreSQL database it used. */
  destroy(): Promise<void>;
}

/** A PostgreSQL database name no other test file or run uses. */
export function uniqueDatabaseName(prefix = "test"): string {
  return `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
}

/** The template the domain project's global setup made, if any. */
function template() {
  try {
    return inject("databaseTemplate");
  } catch {
    return undefined;
  }
}

/**
 * Opens a new migrated database. `maxConnections` sizes the PostgreSQL pool (default 5); PGlite
 * has one connection. `migrateOwn` skips the run's PGlite template and migrates afresh: the
 * websocket suite's 50 back-to-back subscriptions stalled one query for over 10 s on a PGlite
 * loaded from the dump, reproducibly, and never on a migrated one (not yet understood; see
 * docs/product/engineering.md#tests).
 */
export async function createTestDatabase(options: Pick<OpenDatabaseOptions, "maxConnections"> & { migrateOwn?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const from = options.migrateOwn && !serverUrl ? undefined : template();
  if (!serverUrl) {
    const pgliteDump = from?.kind === "pglite" ? new Blob([await readFile(from.file)]) : undefined;
    const handle = await openDatabase({ pgliteDump });
    return { ...handle, destroy: handle.close };
  }
  const name = uniqueDatabaseName();
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(from?.kind === "postgres" ? `create database "${name}" template "${from.name}"` : `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: options.maxConnections ?? 5 });
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
