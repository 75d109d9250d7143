/**
 * bench/http (issue 12): requests per second and p99 latency of the site's pages and calls,
 * each printed as a ratio to baselines served by this benchmark in the same run, since absolute
 * figures drift on shared machines:
 * - the node:http floor (a hello world),
 * - a minimal React Router page (bench/minimal-router: one route, no data, built here like the
 *   site) and its resource route, served by @react-router/node on node:http in a process of its
 *   own with NODE_ENV=production, as the site is.
 *
 * Targets (issue 12): visitor `/`, `/post/{id}` (the bench data set's post with exactly 50
 * comments; on the demo data the home page's most commented), `/search`,
 * `/profile/{id}` ≥ 2× the minimal page at 50 connections, p99 within 2× the floor's p99 or
 * 50 ms; signed-in `/` and `/post/{id}` ≥ 0.3× the minimal page at 10 connections, p99 ≤ 150 ms;
 * `/api/profile/{id}/posts` and the unread counters ≥ 0.6× the minimal resource route at 50.
 * Beside each member's page, two lines show where it spends: its loaders alone (the page's data
 * request, `.data`: every loader run, nothing rendered) and the floor of its rendering (the
 * minimal app's markup route writing that page's markup, taken from it in this run, as plain
 * elements: no components, data or database), each as a ratio to the minimal page. Beside each
 * visitor's page, the same page asked for with gzip, as a browser asks, and the floor of sending
 * its bytes at all (node:http in the minimal app's process answering them as they are).
 * Every line says whether its target is met, and beside it the serving process's CPU time per
 * request ("srv ms/req"; none for the floor, served by this process, whose "client" figure
 * therefore holds both) and the load generator's own CPU as a share of one core ("client"): near
 * 100 % the generator, not the server, set the pace
 * (on two cores, a 100 KB page takes the generator longer to read than the cache to send).
 * Then page weight: the HTML of the post page with 50 comments (≤ 100 KB) and the JavaScript the
 * home page loads at first (≤ 150 KB with gzip).
 *
 *   npm run build && npm run bench:http                          # PGlite, the demo data
 *   BENCH_DATABASE_URL=postgres://…/shodka_bench npm run bench:http   # PostgreSQL (npm run bench:data)
 *   BENCH_SECONDS=10 to change the length of each measurement.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startServer } from "../tests/setup/server";
import { readBenchMeta } from "./data/meta";
import { startMinimalApp } from "./minimal-app";
import { bodyMarkup } from "./markup-tree";
import { pageScripts } from "./page-scripts";
import { cpuMs } from "./process-cpu";
import { signIn } from "./sign-in";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface Figure {
  name: string;
  connections: number;
  rps: number;
  p99: number;
  errors: number;
  /** The serving process's CPU time per answered request (ms), where it has a process of its own. */
  serverCpuMs?: number;
  /** The load generator's (this process's) CPU time over the run, as a share of one core. */
  clientLoad: number;
  target?: { rps: number; of: Figure; p99: number };
  /** No target: a part or a floor of a target's page, printed as a ratio to this baseline. */
  reference?: { of: Figure; says: string };
}

/**
 * Loads `url` with `connections` connections for SECONDS after a 2-second warm-up. With
 * `serverPid`, also reads that process's CPU time per answered request: on two cores the load
 * generator (autocannon, in this process) can use a whole core on large pages and then sets the
 * pace itself, which its load column shows and the server's CPU per request does not depend on.
 */
async function measure(name: string, url: string, connections: number, headers: Record<string, string> = {}, serverPid?: number): Promise<Figure> {
  // A short warm-up so JIT and caches settle before the measured run.
  await autocannon({ url, connections, duration: 2, headers });
  const serverBefore = serverPid === undefined ? 0 : cpuMs(serverPid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({ url, connections, duration: SECONDS, headers });
  const client = process.cpuUsage(clientBefore);
  const clientLoad = (client.user + client.system) / 1000 / (performance.now() - started);
  const answered = result.requests.total;
  const serverCpuMs = serverPid === undefined || answered === 0 ? undefined : (cpuMs(serverPid) - serverBefore) / answered;
  return { name, connections, rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx, serverCpuMs, clientLoad };
}

async function listen(server: Server): Promise<string> {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return `http://127.0.0.1:${port}`;
}

// Baseline 1: the node:http floor.
const floor = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "text/plain" });
  res.end("hello world");
});
const floorUrl = await listen(floor);

// Baseline 2: the minimal React Router app, built now and served as the site is (bench/minimal-app.ts),
// with a folder where this run leaves the markup of a member's pages for its markup route.
const markupDir = mkdtempSync(path.join(tmpdir(), "bench-markup-"));
process.on("exit", () => rmSync(markupDir, { recursive: true, force: true }));
const minimal = await startMinimalApp({ BENCH_MARKUP_DIR: markupDir });
const minimalUrl = minimal.url;

const databaseUrl = process.env.BENCH_DATABASE_URL;
const server = await startServer({ PASSWORD_HASHING: "standard", SEED_DEMO: databaseUrl ? "0" : "1", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
try {
  const site = server.baseUrl;
  const feed = (await (await fetch(`${site}/api/profile/2/posts?perPage=1`)).json()) as { data: { items: { id: number; author: { id: number } }[] } };
  const authorId = feed.data.items[0]?.author.id ?? 2;
  // On the bench data set, the post it made with exactly 50 comments (the home page's newest posts have none yet).
  const meta = databaseUrl ? await readBenchMeta(databaseUrl) : null;
  const postId = meta?.posts.fiftyComments ?? (await busiestPost(site));
  const word = "продам";
  const cookie = await signIn(site);

  const figures: Figure[] = [];
  const floorAt50 = await measure("node:http floor", floorUrl, 50);
  const minimalAt50 = await measure("minimal React Router page", `${minimalUrl}/`, 50, {}, minimal.pid);
  const minimalAt10 = await measure("minimal React Router page", `${minimalUrl}/`, 10, {}, minimal.pid);
  const resourceAt50 = await measure("minimal React Router resource route", `${minimalUrl}/resource`, 50, {}, minimal.pid);
  figures.push(floorAt50, minimalAt50, minimalAt10, resourceAt50);

  const visitorP99 = Math.max(2 * floorAt50.p99, 50);
  for (const [name, url] of [
    ["visitor /", "/"],
    [`visitor /post/${postId}`, `/post/${postId}`],
    [`visitor /search?q=${word}`, `/search?q=${encodeURIComponent(word)}`],
    [`visitor /profile/${authorId}`, `/profile/${authorId}`],
  ] as const) {
    figures.push({ ...(await measure(name, site + url, 50, {}, server.process.pid)), target: { rps: 2, of: minimalAt50, p99: visitorP99 } });
    // The same answer as a browser asks for it (a browser always accepts gzip, which the cache
    // keeps ready), and the floor of sending this page's bytes at all: node:http in the minimal
    // app's process answering them as they are, with no cache lookup, token or headers.
    figures.push({
      ...(await measure("  with gzip, as a browser asks", site + url, 50, { "accept-encoding": "gzip" }, server.process.pid)),
      reference: { of: minimalAt50, says: "part" },
    });
    const slug = name.replace(/[^a-z0-9]+/gi, "-");
    const page = Buffer.from(await (await fetch(site + url, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
    writeFileSync(path.join(markupDir, `${slug}.html`), page);
    figures.push({
      ...(await measure(`  its ${(page.length / 1000).toFixed(0)} KB from node:http`, `${minimalUrl}/bytes/${slug}`, 50, {}, minimal.pid)),
      reference: { of: minimalAt50, says: "floor" },
    });
  }
  for (const [name, url, data, markup, shared] of [
    ["member /", "/", "/_root.data", "member-home", null],
    [`member /post/${postId}`, `/post/${postId}`, `/post/${postId}.data`, "member-post", "visitor-post"],
  ] as const) {
    figures.push({ ...(await measure(name, site + url, 10, { cookie }, server.process.pid)), target: { rps: 0.3, of: minimalAt10, p99: 150 } });
    // Where a member's page spends: its loaders alone (the same page's data request, React
    // Router's single fetch: every loader run and its data encoded, nothing rendered), and the
    // floor of its rendering (the minimal app writing this page's markup as plain elements: no
    // components, data or database).
    figures.push({
      ...(await measure(`  its loaders alone (${data})`, site + data, 10, { cookie }, server.process.pid)),
      reference: { of: minimalAt10, says: "part" },
    });
    const page = await (await fetch(site + url, { headers: { cookie } })).text();
    writeFileSync(path.join(markupDir, `${markup}.json`), JSON.stringify(bodyMarkup(page)));
    figures.push({
      ...(await measure("  its markup alone (minimal app)", `${minimalUrl}/markup/${markup}`, 10, {}, minimal.pid)),
      reference: { of: minimalAt10, says: "floor" },
    });
    if (shared) {
      // What every reader's page holds (a visitor's: the post and its comments, no actions), so
      // the floor of any page showing them.
      const visitorPage = await (await fetch(site + url)).text();
      writeFileSync(path.join(markupDir, `${shared}.json`), JSON.stringify(bodyMarkup(visitorPage)));
      figures.push({
        ...(await measure("  a visitor's markup of it alone (minimal app)", `${minimalUrl}/markup/${shared}`, 10, {}, minimal.pid)),
        reference: { of: minimalAt10, says: "floor of any page showing it" },
      });
    }
  }
  for (const [name, url, headers] of [
    [`/api/profile/${authorId}/posts`, `/api/profile/${authorId}/posts`, {}],
    ["/api/profile/notifications/unread (member)", "/api/profile/notifications/unread", { cookie }],
  ] as const) {
    figures.push({
      ...(await measure(name, site + url, 50, headers, server.process.pid)),
      target: { rps: 0.6, of: resourceAt50, p99: Number.POSITIVE_INFINITY },
    });
  }

  console.log(`\nbench/http: ${SECONDS} s per target, database ${databaseUrl ? "PostgreSQL" : "PGlite (demo data)"}`);
  console.log(
    "target".padEnd(50),
    "conn".padStart(5),
    "req/s".padStart(9),
    "× floor".padStart(8),
    "× minimal".padStart(10),
    "p99 ms".padStart(8),
    "errors".padStart(7),
    "srv ms/req".padStart(11),
    "client".padStart(7),
    "  verdict",
  );
  for (const f of figures) {
    const of = f.target?.of ?? f.reference?.of;
    const ofMinimal = of ? f.rps / of.rps : Number.NaN;
    const verdict = f.target
      ? `${ofMinimal >= f.target.rps && f.p99 <= f.target.p99 ? "met" : "MISSED"} (≥ ${f.target.rps}× ${f.target.of.name}${Number.isFinite(f.target.p99) ? `, p99 ≤ ${f.target.p99.toFixed(0)} ms` : ""})`
      : (f.reference?.says ?? "baseline");
    console.log(
      f.name.padEnd(50),
      String(f.connections).padStart(5),
      f.rps.toFixed(0).padStart(9),
      (f.rps / floorAt50.rps).toFixed(3).padStart(8),
      (of ? ofMinimal.toFixed(2) : "").padStart(10),
      f.p99.toFixed(1).padStart(8),
      String(f.errors).padStart(7),
      (f.serverCpuMs === undefined ? "" : f.serverCpuMs.toFixed(3)).padStart(11),
      `${(100 * f.clientLoad).toFixed(0)} %`.padStart(7),
      ` ${verdict}`,
    );
  }

  // Page weight (issue 12: the post page with 50 comments ≤ 100 KB of HTML before compression).
  console.log("\npage weight (HTML before compression; target for the post page ≤ 100 KB)");
  for (const [name, url, headers] of [
    [`visitor /post/${postId}`, `/post/${postId}`, {}],
    [`member /post/${postId}`, `/post/${postId}`, { cookie }],
    ["visitor /", "/", {}],
  ] as const) {
    const bytes = (await (await fetch(site + url, { headers })).arrayBuffer()).byteLength;
    console.log(name.padEnd(50), `${(bytes / 1000).toFixed(1)} KB`.padStart(10));
  }
  // The floor pages' own weight, to show they write about as much as the pages they stand for
  // (less the router's data, which their pages have none of).
  for (const [name, markup] of [
    [`  member /post/${postId}'s markup alone`, "member-post"],
    [`  visitor /post/${postId}'s markup alone`, "visitor-post"],
    ["  member /'s markup alone", "member-home"],
  ] as const) {
    const bytes = (await (await fetch(`${minimalUrl}/markup/${markup}`)).arrayBuffer()).byteLength;
    console.log(name.padEnd(50), `${(bytes / 1000).toFixed(1)} KB`.padStart(10));
  }

  // The JavaScript a page has the browser fetch at first, as sent with gzip (issue 12: the home
  // page ≤ 150 KB).
  console.log("\nJavaScript at first load (modules the HTML names, bytes as sent with gzip; target for / ≤ 150 KB)");
  for (const [name, url] of [
    ["visitor /", "/"],
    [`visitor /post/${postId}`, `/post/${postId}`],
  ] as const) {
    const scripts = await pageScripts(site, url);
    const verdict = url === "/" ? (scripts.bytes <= 150_000 ? " met" : " MISSED") : "";
    console.log(
      name.padEnd(50),
      `${(scripts.bytes / 1000).toFixed(1)} KB`.padStart(10),
      `${scripts.files} files`.padStart(10) + verdict,
      `(Brotli, as Chrome gets them: ${(scripts.chromeBytes / 1000).toFixed(1)} KB)`,
    );
  }
  // The floor: the minimal React Router page's own JavaScript (React, React DOM, the router), as
  // its server sends it (compressed as the site's files are).
  const minimalScripts = await pageScripts(minimalUrl, "/");
  console.log(
    "minimal React Router page (the floor)".padEnd(50),
    `${(minimalScripts.bytes / 1000).toFixed(1)} KB`.padStart(10),
    `${minimalScripts.files} files`.padStart(10),
    `   (Brotli, as Chrome gets them: ${(minimalScripts.chromeBytes / 1000).toFixed(1)} KB)`,
  );
} finally {
  await server.stop();
  floor.close();
  minimal.stop();
}

/** The post with the most comments among the home page's: on the demo data, which has no bench meta. */
async function busiestPost(site: string): Promise<number> {
  const html = await (await fetch(`${site}/`)).text();
  const ids = [...new Set([...html.matchAll(/href="\/post\/(\d+)"/g)].map((match) => Number(match[1])))];
  let best = { id: ids[0] ?? 1, comments: -1 };
  for (const id of ids) {
    const page = await (await fetch(`${site}/post/${id}`)).text();
    const comments = (page.match(/id="comment-\d+"/g) ?? []).length;
    if (comments > best.comments) best = { id, comments };
  }
  return best.id;
}
