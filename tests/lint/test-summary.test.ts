/**
 * scripts/test-summary.mjs writes `npm test`'s closing line, "N passed, N failed", from the steps'
 * JSON reports (docs/product/engineering.md#tests). A run where a step broke before or around its
 * tests must not close with "0 failed": the journeys' web server that never started (its port
 * taken), a Vitest file whose hook threw so that its tests never ran.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, "../../scripts/test-summary.mjs");
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes each report into a fresh folder and runs the script on them: its output and exit code. */
async function summarize(reports: Record<string, unknown>): Promise<{ stdout: string; code: number }> {
  dir = await mkdtemp(path.join(tmpdir(), "test-summary-"));
  const files: string[] = [];
  for (const [name, report] of Object.entries(reports)) {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(report));
    files.push(file);
  }
  try {
    const { stdout } = await run(process.execPath, [script, ...files]);
    return { stdout, code: 0 };
  } catch (error) {
    const failure = error as { stdout: string; code: number };
    return { stdout: failure.stdout, code: failure.code };
  }
}

/** A Vitest JSON report of one file with these test states. */
function vitestReport(fileStatus: "passed" | "failed", states: ("passed" | "failed" | "skipped")[], message = "") {
  return {
    numPassedTests: states.filter((s) => s === "passed").length,
    numFailedTests: states.filter((s) => s === "failed").length,
    numPendingTests: states.filter((s) => s === "skipped").length,
    numTodoTests: 0,
    testResults: [
      {
        name: "/repo/app/domain/deals/deals.server.test.ts",
        status: fileStatus,
        message,
        assertionResults: states.map((status, i) => ({ fullName: `deal ${i}`, status, failureMessages: [] })),
      },
    ],
  };
}

const lastLine = (stdout: string) => stdout.trim().split("\n").at(-1);

describe("npm test's closing line", () => {
  it("sums passing reports and exits 0", async () => {
    const { stdout, code } = await summarize({
      "vitest-pglite.json": vitestReport("passed", ["passed", "passed"]),
      "lint.json": { step: "lint", ok: true },
      "playwright.json": { suites: [], errors: [], stats: { expected: 4, unexpected: 0, flaky: 0, skipped: 0 } },
    });
    expect(lastLine(stdout)).toBe("7 passed, 0 failed");
    expect(code).toBe(0);
  });

  it("counts the journeys as failed when their web server never started", async () => {
    const { stdout, code } = await summarize({
      "vitest-pglite.json": vitestReport("passed", ["passed", "passed", "passed"]),
      "playwright.json": {
        suites: [],
        errors: [{ message: "Error: http://127.0.0.1:4199/health is already used, make sure that nothing is running on the port/url" }],
        stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
      },
    });
    expect(lastLine(stdout)).toBe("3 passed, 1 failed");
    expect(stdout).toContain("playwright › Error: http://127.0.0.1:4199/health is already used");
    expect(code).toBe(1);
  });

  it("counts a Vitest file whose tests never ran because its hook threw", async () => {
    const { stdout, code } = await summarize({
      "vitest-pglite.json": vitestReport("failed", ["skipped", "skipped"], "Hook timed out in 200000ms."),
    });
    expect(lastLine(stdout)).toBe("0 passed, 1 failed, 2 skipped");
    expect(stdout).toContain("deals.server.test.ts: Hook timed out in 200000ms.");
    expect(code).toBe(1);
  });

  it("counts a file with failed tests once per failed test, not once more for the file", async () => {
    const { stdout } = await summarize({ "vitest-pglite.json": vitestReport("failed", ["passed", "failed"]) });
    expect(lastLine(stdout)).toBe("1 passed, 1 failed");
  });
});
