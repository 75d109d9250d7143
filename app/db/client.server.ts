/**
 * Opens the database: PostgreSQL through postgres.js when a URL is given, otherwise embedded
 * PGlite in DATA_DIR/pglite (or in memory for tests). Both run the same committed migrations
 * from drizzle/ before the first query; on PostgreSQL under an advisory lock, so that server
 * processes starting together on an empty database migrate (and seed) one after the other.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { logger } from "~/lib/logger.server";
import { memoryPubSub, postgresPubSub, registerPubSub, type PubSub } from "~/lib/realtime/pubsub.server";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The database handle every domain function takes first: a connection or a transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/**
 * The rows of a raw query run on `db` (or a transaction), whichever driver answers it: postgres.js
 * returns the rows as an array, PGlite an object `{ rows }`. `T` is the caller's shape of a row.
 */
export async function executeRows<T = Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: unknown[] } | unknown[];
  return (Array.isArray(result) ? result : (result.rows ?? [])) as T[];
}

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
  /**
   * For PGlite in memory: starts from this data directory dump (`dumpDataDir`, an uncompressed
   * tar) instead of an empty database, e.g. one already migrated (tests/setup/database.ts), so
   * that the migrator finds every migration applied and has nothing to do.
   */
  pgliteDump?: Blob;
  /** Folder of committed migrations; defaults to ./drizzle under the working directory. */
  migrationsFolder?: string;
  /** Pool size for PostgreSQL (default 10). */
  maxConnections?: number;
  /**
   * Runs after the migrations, before the handle is returned, while PostgreSQL's migration
   * lock is still held: work that must happen once however many processes start together,
   * such as seeding an empty database.
   */
  setup?: (handle: DatabaseHandle) => Promise<void>;
}

/**
 * The PostgreSQL advisory lock (one bigint key, session-level) held while migrating and
 * running `setup`. Two processes migrating at once would both try to create the same schema,
 * tables and types and one would fail (tests/cluster/startup-race.test.ts).
 */
export const MIGRATION_LOCK_KEY = 5_174_236_601_803_214n;

/**
 * Opens and migrates the database, then runs `options.setup`. Throws if the migrations cannot
 * be applied or setup fails (the connections are closed first).
 */
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
    const db = drizzle(preparingStatements(client), { schema });
    // Its own connection: the lock belongs to a session, and the pool may have one connection only.
    const lock = postgres(options.url, { max: 1, onnotice: () => {} });
    let handle: DatabaseHandle | undefined;
    try {
      const [first] = await lock.unsafe<{ locked: boolean }[]>(`select pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) as locked`);
      if (!first?.locked) {
        logger.info("another process is migrating the database: waiting for it to finish");
        await lock.unsafe(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      }
      await migrate(db, { migrationsFolder });
      const pubsub = postgresPubSub(client, db as unknown as Db);
      handle = handleOf(db, "postgres", pubsub, () => client.end({ timeout: 5 }));
      // Serve only once frames published by other processes reach this one.
      await pubsub.ready();
      await options.setup?.(handle);
      return handle;
    } catch (error) {
      await (handle ? handle.close() : client.end({ timeout: 5 })).catch(() => {});
      throw error;
    } finally {
      // Ending the session releases the lock.
      await lock.end({ timeout: 5 });
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // PGlite creates its own directory but not DATA_DIR above it.
  if (options.pgliteDir) mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  // In memory (a database per test file, bench/search's run on the demo data) PostgreSQL's default
  // 128 MB of shared buffers is more than such a database ever holds, and setting them up is a
  // quarter of its start (≈ 0.13 s of CPU a file; docs/product/engineering.md#keeping-the-run-short).
  const postgresqlconf = options.pgliteDir ? undefined : ["shared_buffers = 16MB"];
  const client = new PGlite({ dataDir: options.pgliteDir, loadDataDir: options.pgliteDump, extensions: { pg_trgm }, postgresqlconf });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  const handle = handleOf(db, "pglite", memoryPubSub(), () => client.close());
  await options.setup?.(handle);
  return handle;
}

/** One SELECT statement: no semicolon anywhere, so never two statements in one text. */
const SINGLE_SELECT = /^\s*(?:with|select)\b[^;]*$/i;

/**
 * Statements whose best plan depends on the text searched for: full-text queries, trigram
 * similarity, LIKE patterns. A prepared statement is planned once for any value after five runs,
 * and a generic plan cannot tell a rare word from a common one: it walked every post newest first
 * for a word in ten posts (145 ms instead of 3 ms on the bench data set). These are sent unnamed,
 * planned for their values each time.
 */
const VALUE_DEPENDENT_PLAN = /to_tsquery\(|similarity\(|\bi?like\b/i;

/**
 * How `preparingStatements` sends `query` with `args`: `prepare` (a named statement, planned
 * generically after five runs) unless its plan depends on the values (`VALUE_DEPENDENT_PLAN`);
 * `simple` (the simple protocol, no parameters, several statements allowed) only for text without
 * parameters that is not one SELECT.
 */
export function statementOptions(query: string, args: readonly unknown[]): { prepare: boolean; simple: boolean } {
  return { prepare: !VALUE_DEPENDENT_PLAN.test(query), simple: args.length === 0 && !SINGLE_SELECT.test(query) };
}

/**
 * The postgres.js client with every statement Drizzle sends prepared by name on its connection.
 * Drizzle passes `prepare: false` unless a query is given a name, so PostgreSQL parsed and planned
 * every query again: about 25 ms of its CPU per signed-in home page on the bench data set
 * (bench/http, issue 12) — as much as running them. postgres.js keeps the statements per
 * connection (connections are recycled after 30–60 min, which bounds the cache). Transactions'
 * clients are wrapped too. Not for a PgBouncer in transaction mode.
 * postgres.js sends a query without parameters by the simple protocol, which cannot prepare: a
 * single SELECT without parameters (the home feed's pinned posts: 4 ms of planning each time) is
 * sent by the extended protocol instead; other such text (migrations, several statements in one)
 * keeps the simple protocol. Searches (`VALUE_DEPENDENT_PLAN`) are not prepared.
 */
function preparingStatements<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "unsafe") {
        return (query: string, args: unknown[] = [], options: Record<string, unknown> = {}) =>
          (value as (...call: unknown[]) => unknown).call(target, query, args, { ...options, ...statementOptions(query, args) });
      }
      if (property === "begin" || property === "savepoint") {
        return (...call: unknown[]) => {
          const run = call.at(-1) as (tx: object) => unknown;
          return (value as (...call: unknown[]) => unknown).call(target, ...call.slice(0, -1), (tx: object) => run(preparingStatements(tx)));
        };
      }
      return (value as (...call: unknown[]) => unknown).bind(target);
    },
  });
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
