/**
 * What benchmarks need to know about a bench data set — the accounts to sign in with, the
 * post with exactly 50 comments, popular posts, busy members, conversations with unread
 * messages, search words of known frequency — stored in the database itself (table
 * bench_meta, one row per key) and, for reading by eye, in bench/.data/<database>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { BenchSizes } from "./model";

export interface BenchAccount {
  id: number;
  username: string;
  email: string;
  password: string;
  role: "admin" | "moderator" | "member";
}

export interface SearchWord {
  word: string;
  /** Posts whose search vector matches the word (plainto_tsquery('russian', word)). */
  posts: number;
}

export interface BenchMeta {
  database: string;
  generatedAt: string;
  /** The latest row's time; the data spans the two years before it. */
  end: string;
  sizes: BenchSizes;
  /** Rows per table as written. */
  rows: Record<string, number>;
  accounts: { admin: BenchAccount; moderator: BenchAccount; demo: BenchAccount };
  posts: {
    /** A post a week old with exactly 50 comments (none deleted, some replies). */
    fiftyComments: number;
    /** The posts with the most comments, most first: [id, comment_count]. */
    mostCommented: [number, number][];
    /** The posts with the most likes, most first: [id, like_count]. */
    mostLiked: [number, number][];
    /** The newest post's id. */
    newest: number;
  };
  members: {
    /** The members with the most posts, most first: [id, username, posts]. */
    busiest: [number, string, number][];
    /** A member with an ordinary amount of posts (the demo account). */
    ordinary: number;
  };
  conversations: {
    publicId: number;
    /** demo's personal conversations with unread messages. */
    demoPersonalUnread: number[];
    /** demo's group conversations with unread messages. */
    demoGroupsUnread: number[];
  };
  search: {
    /** Words of known frequency injected for the benchmark, rarest first. */
    rare: SearchWord[];
    /** Common words of the seed pools with their frequency, most common first. */
    common: SearchWord[];
    /** Half-typed words whose full word is in `posts` posts: prefix search must find them. */
    prefix: { prefix: string; word: string; posts: number }[];
  };
  timings: Record<string, number>;
  seconds: number;
  sizeBytes: number;
}

/** The meta of the bench database at `url`, or null when it has none (not generated, or unfinished). */
export async function readBenchMeta(url: string): Promise<BenchMeta | null> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [table] = await sql`select to_regclass('public.bench_meta') is not null as present`;
    if (!table?.present) return null;
    const rows = await sql<{ key: string; value: unknown }[]>`select key, value from bench_meta`;
    if (rows.length === 0) return null;
    return Object.fromEntries(rows.map((row) => [row.key, row.value])) as unknown as BenchMeta;
  } catch (error) {
    // A database that does not exist has no meta either.
    if ((error as { code?: string }).code === "3D000") return null;
    throw error;
  } finally {
    await sql.end();
  }
}

/** Writes the meta into bench_meta (created here) and bench/.data/<database>.json. */
export async function writeBenchMeta(sql: postgres.Sql, meta: BenchMeta, dataDir = path.resolve(import.meta.dirname, "../.data")): Promise<string> {
  await sql`create table if not exists bench_meta (key text primary key, value jsonb not null)`;
  await sql`truncate bench_meta`;
  for (const [key, value] of Object.entries(meta)) await sql`insert into bench_meta ${sql({ key, value: sql.json(value as postgres.JSONValue) })}`;
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `${meta.database}.json`);
  writeFileSync(file, `${JSON.stringify(meta, null, 2)}\n`);
  return file;
}

/** The URL of database `database` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
