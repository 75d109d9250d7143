/**
 * bench/search: latency of the post search (app/domain/search/search.server.ts, the same
 * function /search calls) over a set of Russian queries, as median and p95 in ms, each also
 * printed as a ratio to a baseline measured in the same run on the same connection: a bare
 * `select 1` round trip and a primary-key lookup (issue 3, "Done when").
 *
 *   (a) the seeded demo community on PGlite, and on PostgreSQL when BENCH_DATABASE_URL is
 *       set (a fresh database is created, migrated, seeded, measured and dropped);
 *   (b) with BENCH_DATABASE_URL, the bench data set of `npm run bench:data` (1 000 000
 *       posts; database BENCH_DATA_DB, default shodka_bench), with its words of known
 *       frequency: rare, common, a half-typed one. When that database has no data set yet,
 *       it is generated first (minutes; the BENCH_* sizes of bench:data apply) and kept.
 *
 *   npm run bench:search                                              # (a) on PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:search
 *   BENCH_LARGE_POSTS=0 …        skips (b)
 *   BENCH_RUNS=30 …              measured runs per query on the seeded data (default 20)
 *   BENCH_LARGE_RUNS=40 …        measured runs per query on the bench data set (default 20)
 *
 * The target is a median under 50 ms on the seeded data. Not part of `npm test`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle, type Db } from "../app/db/client.server";
import { posts } from "../app/db/schema";
import { seedDemo } from "../app/db/seed/seed.server";
import { searchPosts } from "../app/domain/search/search.server";
import { generateBenchData } from "./data/generator";
import { databaseUrl as urlOf, readBenchMeta, type BenchMeta } from "./data/meta";
import { sizesFromEnv } from "./data/model";

const TARGET_MEDIAN_MS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
// Twenty, so that a p95 is not simply the slowest of a handful: with five runs one slow run set it
// («велосипед» p95 54–56 ms with five runs, 43.5 with twenty, 30.4 with forty; median 27–28 throughout).
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 20);
const LARGE_SKIPPED = process.env.BENCH_LARGE_POSTS === "0";
const BENCH_DATA_DB = process.env.BENCH_DATA_DB ?? "shodka_bench";
const databaseUrl = process.env.BENCH_DATABASE_URL;

interface Query {
  q: string;
  categoryId?: number;
  /** What the query stands for in the table, e.g. «rare». */
  label?: string;
}

/** Queries a member might type: other word forms than the stored ones, phrases, a minus word, a category. */
const QUERIES: Query[] = [
  { q: "сделки" },
  { q: "гаранта" },
  { q: "аккаунт Steam" },
  { q: "продам аккаунты" },
  { q: "видеокарты для майнинга" },
  { q: "USDT" },
  { q: '"сделка через гаранта"' },
  { q: "скины -нож" },
  { q: "обмен криптовалюты" },
  { q: "ключи игр", categoryId: 2 },
  { q: "кошельки", categoryId: 4 },
  { q: "ремонт телефона" },
  { q: "безопасные сделки с депозитом" },
  { q: "и в на" },
];

interface Figure {
  name: string;
  samples: number[];
  note?: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

async function sample(runs: number, warmup: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

/** The two baselines: an empty round trip and a primary-key lookup of random posts. */
async function baselines(db: Db, runs: number): Promise<Figure[]> {
  const [range] = await db.select({ min: sql<number>`min(${posts.id})`.mapWith(Number), max: sql<number>`max(${posts.id})`.mapWith(Number) }).from(posts);
  const min = range?.min ?? 1;
  const span = Math.max(1, (range?.max ?? 1) - min + 1);
  const ids = Array.from({ length: runs + 5 }, () => min + Math.floor(Math.random() * span));
  return [
    { name: "select 1 (baseline)", samples: await sample(runs, 5, () => db.execute(sql`select 1`)) },
    {
      name: "primary-key lookup (baseline)",
      samples: await sample(runs, 5, (i) => db.select({ id: posts.id, title: posts.title }).from(posts).where(eq(posts.id, ids[i]!))),
    },
  ];
}

/** Each query `runs` times after a warm-up call; one figure per query plus "all queries". */
async function searchFigures(db: Db, runs: number, queries: Query[] = QUERIES): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const query of queries) {
    // The first call is also the warm-up.
    const found = await searchPosts(db, query, { page: 1, perPage: 10 });
    const samples = await sample(runs, 0, () => searchPosts(db, query, { page: 1, perPage: 10 }));
    const label = `search ${query.label ? `${query.label} ` : ""}«${query.q}»${query.categoryId ? ` in category ${query.categoryId}` : ""}`;
    figures.push({ name: label, samples, note: `${found.total} found` });
  }
  figures.unshift({ name: "search: all queries", samples: figures.flatMap((f) => f.samples) });
  return figures;
}

function print(title: string, baseline: Figure[], figures: Figure[]) {
  const base = summary(baseline[0]!.samples);
  console.log(`\n${title}`);
  console.log("target".padEnd(58), "median ms".padStart(10), "× select 1".padStart(11), "p95 ms".padStart(9), "× select 1".padStart(11), "  note");
  for (const figure of [...baseline, ...figures]) {
    const s = summary(figure.samples);
    console.log(
      figure.name.slice(0, 58).padEnd(58),
      s.median.toFixed(2).padStart(10),
      (s.median / Math.max(base.median, 0.001)).toFixed(1).padStart(11),
      s.p95.toFixed(2).padStart(9),
      (s.p95 / Math.max(base.p95, 0.001)).toFixed(1).padStart(11),
      figure.note ? `  ${figure.note}` : "",
    );
  }
  const pk = summary(baseline[1]!.samples);
  const all = summary(figures[0]!.samples);
  console.log(
    `search median = ${(all.median / Math.max(pk.median, 0.001)).toFixed(1)} × primary-key lookup; p95 = ${(all.p95 / Math.max(pk.p95, 0.001)).toFixed(1)} ×`,
  );
  return all;
}

/** A fresh database on the BENCH_DATABASE_URL server; `drop()` removes it whatever happened. */
async function freshPostgres(label: string) {
  const admin = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  const name = `bench_search_${label}_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(databaseUrl!);
  url.pathname = `/${name}`;
  let handle: DatabaseHandle | undefined;
  return {
    name,
    url: url.toString(),
    async open() {
      handle = await openDatabase({ url: url.toString(), maxConnections: 4 });
      return handle;
    },
    async drop() {
      await handle?.close().catch(() => {});
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

async function seededRun(engine: "PGlite" | "PostgreSQL"): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-search-"));
  const pg = engine === "PostgreSQL" ? await freshPostgres("seed") : null;
  const handle = pg ? await pg.open() : await openDatabase();
  try {
    const seeded = await seedDemo(handle.db, { dataDir });
    await handle.db.execute(sql`analyze`);
    const baseline = await baselines(handle.db, RUNS * 5);
    const figures = await searchFigures(handle.db, RUNS);
    const all = print(`bench/search (a): seeded demo data on ${engine} — ${seeded.posts} posts, ${RUNS} runs per query`, baseline, figures);
    const met = all.median < TARGET_MEDIAN_MS;
    console.log(`target: median under ${TARGET_MEDIAN_MS} ms on the seeded data — ${met ? "met" : "NOT met"} (${all.median.toFixed(2)} ms)`);
    return met;
  } finally {
    if (pg) await pg.drop();
    else await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The bench data set's own queries: its rare and common words (their post counts are known),
 * a half-typed word that prefix search must complete, and a word typed with a Latin «o».
 */
function benchQueries(meta: BenchMeta): Query[] {
  const rare = meta.search.rare.filter((w) => w.posts > 0);
  const common = meta.search.common.slice(0, 3);
  return [
    ...rare.map((w) => ({ q: w.word, label: `rare (${w.posts} posts)` })),
    ...common.map((w) => ({ q: w.word, label: `common (${w.posts} posts)` })),
    ...meta.search.prefix.map((p) => ({ q: p.prefix, label: `prefix of «${p.word}» (${p.posts} posts)` })),
    { q: "Прoдам", label: "Latin o" },
  ];
}

async function largeRun(): Promise<void> {
  const url = urlOf(databaseUrl!, BENCH_DATA_DB);
  let meta = await readBenchMeta(url);
  if (!meta) {
    console.log(`\nbench/search (b): ${BENCH_DATA_DB} holds no bench data set yet: generating it (npm run bench:data)…`);
    meta = await generateBenchData({ serverUrl: databaseUrl!, database: BENCH_DATA_DB, sizes: sizesFromEnv() });
  }
  const handle = await openDatabase({ url, maxConnections: 4 });
  try {
    const baseline = await baselines(handle.db, 50);
    const figures = await searchFigures(handle.db, LARGE_RUNS, [...QUERIES, ...benchQueries(meta)]);
    print(
      `bench/search (b): the bench data set ${BENCH_DATA_DB} on PostgreSQL — ${(meta.rows.posts ?? 0).toLocaleString("ru-RU")} posts (generated ${meta.generatedAt}), ${LARGE_RUNS} runs per query`,
      baseline,
      figures,
    );
  } finally {
    await handle.close();
  }
}

const overall = performance.now();
let met = await seededRun("PGlite");
if (databaseUrl) {
  met = (await seededRun("PostgreSQL")) && met;
  if (!LARGE_SKIPPED) await largeRun();
} else {
  console.log("\nBENCH_DATABASE_URL is not set: PostgreSQL figures and the bench data set are skipped.");
}
console.log(`\nbench/search finished in ${((performance.now() - overall) / 1000).toFixed(1)} s`);
if (!met) process.exitCode = 1;
