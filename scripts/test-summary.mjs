// Sums Vitest and Playwright JSON reports, and steps that are one check each (`{"step": "lint",
// "ok": false}` from scripts/test.sh), into one closing line: "N passed, N failed". A report that
// is missing (its step crashed before writing it), a Playwright error outside the journeys (its
// web server did not start) and a Vitest file that failed without a failed test (its hook threw)
// each count as one failure (tests/lint/test-summary.test.ts). Every failed test is
// named above that line, so the tail of a CI log says what failed without the rest of it.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
/** Lines naming each failed test: "<report> › <file> › <title>: <first line of the error>". */
const failures = [];

/** The first non-empty line of an error message, shortened to 200 characters. */
function firstLine(message) {
  const line = String(message ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .find((l) => l.trim() !== "");
  return (line ?? "").trim().slice(0, 200);
}

/** Vitest's JSON report: testResults[].assertionResults[] with status and failureMessages. */
function vitestFailures(label, report) {
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), file.name ?? "");
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const test of failedTests) {
      failures.push(`${label} › ${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    // A file that failed to load, or whose hook threw before its tests ran, has no failed test of
    // its own but a message: it counts as one failure.
    if (failedTests.length === 0 && file.status === "failed") {
      failed += 1;
      failures.push(`${label} › ${name}: ${firstLine(file.message)}`);
    }
  }
}

/** Playwright's JSON report: suites nest; a test whose status is "unexpected" failed. */
function playwrightFailures(label, suites) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`${label} › [${test.projectName}] ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    playwrightFailures(label, suite.suites);
  }
}

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    failed += 1;
    failures.push(`report missing: ${file}`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  const label = file.replace(/^.*\//, "").replace(/\.json$/, "");
  if ("step" in report) {
    if (report.ok) passed += 1;
    else {
      failed += 1;
      failures.push(`step failed: ${report.step}`);
    }
  } else if ("numPassedTests" in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    vitestFailures(label, report);
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    playwrightFailures(label, report.suites);
    // Errors outside any test (the web server that did not start, a global setup that threw):
    // no journey ran, or not all of them, so each counts as one failure.
    for (const error of report.errors ?? []) {
      failed += 1;
      failures.push(`${label} › ${firstLine(error.message)}`);
    }
  }
}
if (failures.length > 0) {
  console.log("Failed:");
  for (const line of failures) console.log(`  ${line}`);
}
console.log();
console.log(skipped > 0 ? `${passed} passed, ${failed} failed, ${skipped} skipped` : `${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
