/**
 * bench/lighthouse (issues 12 and 14): Lighthouse's mobile audit (its default: a mid-range phone,
 * simulated slow 4G) of `/`, a post page and `/profile/conversations`, on the production build
 * with the demo data, in Debian's Chromium. Prints the performance and accessibility scores and
 * LCP beside the targets: accessibility ≥ 98 on all three (issue 14), performance ≥ 95 and
 * LCP ≤ 2.5 s on `/` and the post page (issue 12). `/profile/conversations` is audited signed in.
 *
 * One run's performance score moves by ten points and more from run to run on the same build
 * (on one machine, one hour: `/` 78, 85, 86, 90, 91, 94, 97), so each page whose performance is a
 * target is audited BENCH_LIGHTHOUSE_RUNS times (5 by default) and judged on the median run as
 * Lighthouse itself picks it (`computeMedianRun`: the run nearest the median FCP and TTI), as
 * Lighthouse's own notes on score variability advise. Every run's score is printed beside it. A
 * run Lighthouse could not measure (a runtime error such as NO_NAVSTART: no score, no LCP) is
 * reported, not counted, and made up for by one more run.
 *
 * The baseline, audited first in the same way: the minimal React Router page (bench/minimal-app.ts:
 * React, React DOM and the router, one line of text, no styles or fonts), served with its scripts
 * compressed as the site's are. What it scores on the machine is the most a server-rendered React
 * Router page can score there; each target page's LCP is also printed as a ratio to its LCP.
 *
 *   npm run build && npm run bench:lighthouse
 *   BENCH_LIGHTHOUSE_RUNS=1 …                     one run a page (quicker, noisier)
 *   BENCH_LIGHTHOUSE_DIR=tests/.tmp/lighthouse …   also keeps each page's median report (JSON) there
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun, filterToValidRuns } from "lighthouse/core/lib/median-run.js";
import { startServer } from "../tests/setup/server";
import { startMinimalApp } from "./minimal-app";
import { signIn } from "./sign-in";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** One audit's report. */
type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5));

const minimal = await startMinimalApp();
const server = await startServer({ PASSWORD_HASHING: "standard", SEED_DEMO: "1" });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
let missed = 0;

/**
 * `runs` measured audits of `url` (performance and accessibility), in order. A run with a runtime
 * error is printed and replaced by another, up to `runs` replacements in all.
 */
async function audit(url: string, runs: number, cookie?: string): Promise<Result[]> {
  const measured: Result[] = [];
  for (let attempt = 0; measured.length < runs && attempt < 2 * runs; attempt++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { runtimeError } = result.lhr;
    // Lighthouse scores a run it could not measure (no paint seen in time, say) as 0 with no LCP: say why.
    if (runtimeError)
      console.log(`${new URL(url).pathname}: Lighthouse could not measure this run (${runtimeError.code}: ${runtimeError.message}); one more run`);
    else measured.push(result.lhr);
  }
  return filterToValidRuns(measured);
}

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);

try {
  const site = server.baseUrl;
  const home = await (await fetch(`${site}/`)).text();
  const postId = /href="\/post\/(\d+)"/.exec(home)?.[1] ?? "1";
  const cookie = await signIn(site);
  const pages: { name: string; url: string; cookie?: string; performance: boolean; baseline?: true }[] = [
    { name: "minimal React Router page", url: `${minimal.url}/`, performance: true, baseline: true },
    { name: "/", url: `${site}/`, performance: true },
    { name: `/post/${postId}`, url: `${site}/post/${postId}`, performance: true },
    { name: "/profile/conversations", url: `${site}/profile/conversations`, cookie, performance: false },
  ];
  console.log(`\nbench/lighthouse: mobile, ${CHROMIUM}; the median of ${RUNS} runs where performance is a target or the baseline`);
  console.log("page".padEnd(26), "performance".padStart(12), "LCP s".padStart(7), "× base".padStart(7), "accessibility".padStart(14), "  verdict");
  let baselineLcp = Number.NaN;
  for (const page of pages) {
    const runs = await audit(page.url, page.performance ? RUNS : 1, page.cookie);
    if (runs.length === 0) {
      console.log(page.name.padEnd(26), "no run could be measured".padStart(41), page.baseline ? "" : "  MISSED");
      if (!page.baseline) missed++;
      continue;
    }
    const median: Result = computeMedianRun(runs);
    const reportDir = process.env.BENCH_LIGHTHOUSE_DIR;
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      writeFileSync(path.join(reportDir, `${page.name.replace(/[^a-z0-9]+/gi, "_") || "_"}.json`), JSON.stringify(median));
    }
    const { categories, audits } = median;
    const performance = score(median, "performance");
    const accessibility = score(median, "accessibility");
    const lcp = (audits["largest-contentful-paint"]?.numericValue ?? Number.NaN) / 1000;
    if (page.baseline) baselineLcp = lcp;
    const met = accessibility >= 98 && (!page.performance || (performance >= 95 && lcp <= 2.5));
    if (!met && !page.baseline) missed++;
    const failing = Object.values(audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && categories.accessibility?.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0))
      .map((audit) => audit.id);
    const every = runs.length > 1 ? ` (runs: ${runs.map((run) => score(run, "performance")).join(", ")})` : "";
    const verdict = page.baseline ? "baseline" : met ? "met" : "MISSED";
    console.log(
      page.name.padEnd(26),
      String(performance).padStart(12),
      lcp.toFixed(2).padStart(7),
      (lcp / baselineLcp).toFixed(2).padStart(7),
      String(accessibility).padStart(14),
      `  ${verdict}${every}${failing.length > 0 && !page.baseline ? ` (accessibility audits below 1: ${failing.join(", ")})` : ""}`,
    );
  }
} finally {
  await chrome.kill();
  await server.stop();
  minimal.stop();
}
process.exitCode = missed > 0 ? 1 : 0;
