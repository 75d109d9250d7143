// Sums Vitest and Playwright JSON reports, and steps that are one check each (`{"step": "lint",
// "ok": false}` from scripts/test.sh), into one closing line: "N passed, N failed". A report that
// is missing (its step crashed before writing it) counts as one failure.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    failed += 1;
    console.log(`report missing: ${file}`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  if ("step" in report) {
    if (report.ok) passed += 1;
    else {
      failed += 1;
      console.log(`step failed: ${report.step}`);
    }
  } else if ("numPassedTests" in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  }
}
console.log();
console.log(skipped > 0 ? `${passed} passed, ${failed} failed, ${skipped} skipped` : `${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
