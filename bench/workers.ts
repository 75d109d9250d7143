/**
 * bench/workers (issue 12, "Several processes"): what a second node:cluster worker
 * (`WEB_CONCURRENCY=2`) adds to one worker's throughput of a signed-in post page. The target is
 * 2 workers ≥ 1.6× one worker, both measured in this run on the same machine and database, one
 * server after the other.
 *
 * The page is the bench data set's post with 50 comments, read by the signed-in demo admin at
 * 10 connections (bench/http's member line), so no visitor cache answers it. Each server gets a
 * warm-up, then BENCH_SECONDS of load. Beside requests a second and p99 the table shows the CPU
 * the server's processes used (the primary and its workers, /proc) as cores, and the load
 * generator's (this process's) share of one core: on two cores the workers, PostgreSQL and the
 * generator share them, so a second worker cannot double the figure here.
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://…/shodka_bench npm run bench:workers
 *
 * Needs PostgreSQL (`npm run bench:data`): more than one worker refuses PGlite. Not part of `npm test`.
 */
import autocannon from "autocannon";
import { startServer, type RunningServer } from "../tests/setup/server";
import { waitFor } from "../tests/setup/wait";
import { readBenchMeta } from "./data/meta";
import { processTree, treeCpuMs } from "./process-cpu";
import { signIn } from "./sign-in";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const TARGET = 1.6;
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) {
  console.error("bench/workers needs BENCH_DATABASE_URL (a PostgreSQL database filled by `npm run bench:data`): workers refuse PGlite.");
  process.exit(2);
}

interface Figure {
  workers: number;
  rps: number;
  p99: number;
  errors: number;
  /** CPU the server's processes used over the measured run, in cores. */
  serverCores: number;
  /** The load generator's CPU over the run, as a share of one core. */
  clientLoad: number;
}

/** Starts the built server with `workers` workers on the bench database and waits until each listens. */
async function start(workers: number): Promise<RunningServer> {
  const server = await startServer({ PASSWORD_HASHING: "standard", SEED_DEMO: "0", DATABASE_URL: databaseUrl!, WEB_CONCURRENCY: String(workers) });
  await waitFor(() => server.output().split("Server is listening").length - 1 >= workers, `${workers} workers listening`, 60_000);
  return server;
}

async function measure(workers: number, postId: number): Promise<Figure> {
  const server = await start(workers);
  try {
    const cookie = await signIn(server.baseUrl);
    const url = `${server.baseUrl}/post/${postId}`;
    const headers = { cookie };
    await autocannon({ url, connections: CONNECTIONS, duration: 3, headers });
    const pids = processTree(server.process.pid!);
    const serverBefore = treeCpuMs(pids);
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
    const elapsed = performance.now() - started;
    const client = process.cpuUsage(clientBefore);
    return {
      workers,
      rps: result.requests.average,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      serverCores: (treeCpuMs(pids) - serverBefore) / elapsed,
      clientLoad: (client.user + client.system) / 1000 / elapsed,
    };
  } finally {
    await server.stop();
  }
}

const meta = await readBenchMeta(databaseUrl);
const postId = meta?.posts.fiftyComments;
if (!postId) {
  console.error("The bench data set is missing: run `npm run bench:data` on BENCH_DATABASE_URL first.");
  process.exit(2);
}

const one = await measure(1, postId);
const two = await measure(2, postId);

console.log(`\nbench/workers: signed-in /post/${postId} (50 comments), ${CONNECTIONS} connections, ${SECONDS} s each, PostgreSQL`);
console.log(
  "workers".padEnd(8),
  "req/s".padStart(8),
  "× one".padStart(7),
  "p99 ms".padStart(8),
  "errors".padStart(7),
  "server cores".padStart(13),
  "client".padStart(7),
);
for (const figure of [one, two]) {
  console.log(
    String(figure.workers).padEnd(8),
    figure.rps.toFixed(1).padStart(8),
    (figure.rps / one.rps).toFixed(2).padStart(7),
    figure.p99.toFixed(0).padStart(8),
    String(figure.errors).padStart(7),
    figure.serverCores.toFixed(2).padStart(13),
    `${(figure.clientLoad * 100).toFixed(0)} %`.padStart(7),
  );
}
const ratio = two.rps / one.rps;
console.log(`target: 2 workers ≥ ${TARGET}× one worker — ${ratio >= TARGET ? "met" : "MISSED"} (${ratio.toFixed(2)}×)`);
