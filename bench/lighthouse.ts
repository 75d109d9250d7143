/**
 * bench/lighthouse (issues 12 and 14): Lighthouse's mobile audit (its default: a mid-range phone,
 * simulated slow 4G) of `/`, a post page and `/profile/conversations`, on the production build
 * with the demo data, in Debian's Chromium. Prints the performance and accessibility scores and
 * LCP beside the targets: accessibility ≥ 98 on all three (issue 14), performance ≥ 95 and
 * LCP ≤ 2.5 s on `/` and the post page (issue 12). `/profile/conversations` is audited signed in.
 *
 *   npm run build && npm run bench:lighthouse
 *   BENCH_LIGHTHOUSE_DIR=tests/.tmp/lighthouse …   also keeps each page's full report (JSON) there
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServer } from "../tests/setup/server";
import { signIn } from "./sign-in";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const server = await startServer({ PASSWORD_HASHING: "standard", SEED_DEMO: "1" });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
let missed = 0;
try {
  const site = server.baseUrl;
  const home = await (await fetch(`${site}/`)).text();
  const postId = /href="\/post\/(\d+)"/.exec(home)?.[1] ?? "1";
  const cookie = await signIn(site);
  const pages: { path: string; cookie?: string; performance: boolean }[] = [
    { path: "/", performance: true },
    { path: `/post/${postId}`, performance: true },
    { path: "/profile/conversations", cookie, performance: false },
  ];
  console.log(`\nbench/lighthouse: mobile, ${CHROMIUM}`);
  console.log("page".padEnd(26), "performance".padStart(12), "LCP s".padStart(7), "accessibility".padStart(14), "  verdict");
  for (const page of pages) {
    const result = await lighthouse(`${site}${page.path}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
    const reportDir = process.env.BENCH_LIGHTHOUSE_DIR;
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      writeFileSync(path.join(reportDir, `${page.path.replace(/[^a-z0-9]+/gi, "_") || "_"}.json`), JSON.stringify(result.lhr));
    }
    const { categories, audits, runtimeError } = result.lhr;
    // Lighthouse scores a run it could not measure (no paint seen in time, say) as 0 with no LCP: say why.
    if (runtimeError) console.log(`${page.path}: Lighthouse could not measure the page: ${runtimeError.code} ${runtimeError.message}`);
    const performance = Math.round((categories.performance?.score ?? 0) * 100);
    const accessibility = Math.round((categories.accessibility?.score ?? 0) * 100);
    const lcp = (audits["largest-contentful-paint"]?.numericValue ?? Number.NaN) / 1000;
    const met = accessibility >= 98 && (!page.performance || (performance >= 95 && lcp <= 2.5));
    if (!met) missed++;
    const failing = audits
      ? Object.values(audits)
          .filter(
            (audit) => audit.score !== null && audit.score < 1 && categories.accessibility?.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0),
          )
          .map((audit) => audit.id)
      : [];
    console.log(
      page.path.padEnd(26),
      String(performance).padStart(12),
      lcp.toFixed(2).padStart(7),
      String(accessibility).padStart(14),
      `  ${met ? "met" : "MISSED"}${failing.length > 0 ? ` (accessibility audits below 1: ${failing.join(", ")})` : ""}`,
    );
  }
} finally {
  await chrome.kill();
  await server.stop();
}
process.exitCode = missed > 0 ? 1 : 0;
