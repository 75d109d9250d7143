/**
 * bench/http: requests per second and p99 latency of `/`, `/post/{id}` and
 * `/api/profile/{id}/posts` on the seeded database, beside a bare node:http hello-world
 * measured in the same run, each printed as a ratio to that baseline (issue 2).
 *
 *   npm run build && npm run bench:http            # PGlite (the default engine)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:http   # PostgreSQL
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=10 to change the load.
 */
import { createServer } from "node:http";
import autocannon from "autocannon";
import { freePort, startServer } from "../tests/setup/server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Figure {
  name: string;
  rps: number;
  p99: number;
  errors: number;
}

async function measure(name: string, url: string): Promise<Figure> {
  // A short warm-up so JIT and caches settle before the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return { name, rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const baselinePort = await freePort();
const baseline = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "text/plain" });
  res.end("hello world");
});
await new Promise<void>((resolve) => baseline.listen(baselinePort, "127.0.0.1", resolve));

const databaseUrl = process.env.BENCH_DATABASE_URL;
const server = await startServer({ SEED_DEMO: "1", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
try {
  const feed = (await (await fetch(`${server.baseUrl}/api/profile/2/posts?perPage=1`)).json()) as {
    data: { items: { id: number; author: { id: number } }[] };
  };
  const post = feed.data.items[0];
  if (!post) throw new Error("the seeded database has no posts");

  const figures: Figure[] = [];
  figures.push(await measure("node:http hello world (baseline)", `http://127.0.0.1:${baselinePort}/`));
  figures.push(await measure("GET /", `${server.baseUrl}/`));
  figures.push(await measure(`GET /post/${post.id}`, `${server.baseUrl}/post/${post.id}`));
  figures.push(await measure(`GET /api/profile/${post.author.id}/posts`, `${server.baseUrl}/api/profile/${post.author.id}/posts`));

  const base = figures[0]!;
  console.log(`\nbench/http: ${SECONDS} s per target, ${CONNECTIONS} connections, database ${databaseUrl ? "PostgreSQL" : "PGlite"}`);
  console.log("target".padEnd(44), "req/s".padStart(10), "× baseline".padStart(11), "p99 ms".padStart(9), "× baseline".padStart(11), "errors".padStart(7));
  for (const f of figures) {
    console.log(
      f.name.padEnd(44),
      f.rps.toFixed(0).padStart(10),
      (f.rps / base.rps).toFixed(3).padStart(11),
      f.p99.toFixed(1).padStart(9),
      (f.p99 / Math.max(base.p99, 0.001)).toFixed(1).padStart(11),
      String(f.errors).padStart(7),
    );
  }
} finally {
  await server.stop();
  baseline.close();
}
