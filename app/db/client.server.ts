/**
 * Opens the database: PostgreSQL through postgres.js when a URL is given, otherwise embedded
 * PGlite in DATA_DIR/pglite (or in memory for tests). Both run the same committed migrations
 * from drizzle/ before the first query.
 */
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { memoryPubSub, postgresPubSub, registerPubSub, type PubSub } from "~/lib/realtime/pubsub.server";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The database handle every domain function takes first: a connection or a transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  /** Frames between server processes: LISTEN/NOTIFY on PostgreSQL, in-memory on PGlite. */
  pubsub: PubSub;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://… for PostgreSQL; undefined for PGlite. */
  url?: string;
  /** PGlite directory; undefined keeps PGlite in memory. */
  pgliteDir?: string;
  /** Folder of committed migrations; defaults to ./drizzle under the working directory. */
  migrationsFolder?: string;
  /** Pool size for PostgreSQL (default 10). */
  maxConnections?: number;
}

/** Opens and migrates the database. Throws if the migrations cannot be applied. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  const migrationsFolder = options.migrationsFolder ?? path.resolve(process.cwd(), "drizzle");
  if (options.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
    });
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder });
    const pubsub = postgresPubSub(client, db as unknown as Db);
    // Serve only once frames published by other processes reach this one.
    await pubsub.ready();
    return handleOf(db, "postgres", pubsub, () => client.end({ timeout: 5 }));
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = new PGlite({ dataDir: options.pgliteDir, extensions: { pg_trgm } });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return handleOf(db, "pglite", memoryPubSub(), () => client.close());
}

/** Registers the pub/sub of `db` and wraps both in the handle; closing stops the pub/sub first. */
function handleOf(db: unknown, kind: DatabaseHandle["kind"], pubsub: PubSub, closeClient: () => Promise<unknown>): DatabaseHandle {
  registerPubSub(db as Db, pubsub);
  return {
    db: db as Db,
    kind,
    pubsub,
    async close() {
      await pubsub.close();
      await closeClient();
    },
  };
}
