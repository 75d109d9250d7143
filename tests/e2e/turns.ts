/**
 * Journeys run side by side in several Playwright workers against one server
 * (docs/product/engineering.md#tests). A few look at something the whole site shares, which a
 * journey running beside them would change under their assertions; they say so with a tag:
 *
 * - `@alone`: nothing else runs meanwhile (e.g. «the newest visitor comes first» in the online
 *   list: any other journey's member could be newer);
 * - `@shares:<name>`: no other journey tagged with the same name runs meanwhile (e.g. the FAQ
 *   list counted by one journey while another, or the same one in the other project, adds a
 *   question).
 *
 * The turns are directories in tests/.tmp/e2e-turns-<port> (emptied when the e2e server starts,
 * playwright.config.ts): `mkdir` either creates one or fails, across processes. Every running
 * journey holds a file in `running/`; an `@alone` journey first takes `alone/` (so no new journey
 * starts), then waits for `running/` to empty. A journey that finds `alone/` taken steps back
 * and waits for it.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestInfo } from "@playwright/test";
import { waitFor } from "../setup/wait";

/** How long a journey may wait for its turn, in ms: longer than any one journey runs. */
const TURN_TIMEOUT_MS = 180_000;

/** The turns directory of the server `testInfo` runs against. */
function turnsDir(testInfo: TestInfo): string {
  const port = new URL(String(testInfo.project.use.baseURL)).port;
  return path.resolve("tests/.tmp", `e2e-turns-${port}`);
}

/** Creates `dir` if nobody holds it; true when this call did. */
function take(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Waits for the turn the tags of `testInfo` ask for and returns its release. The waiting time
 * is added to the test's timeout, so a journey is not cut short for having waited.
 */
export async function waitForTurn(testInfo: TestInfo): Promise<() => void> {
  const root = turnsDir(testInfo);
  const running = path.join(root, "running");
  const alone = path.join(root, "alone");
  mkdirSync(running, { recursive: true });
  const started = Date.now();
  const timeout = testInfo.timeout;
  testInfo.setTimeout(timeout + TURN_TIMEOUT_MS);
  const releases: (() => void)[] = [];

  if (testInfo.tags.includes("@alone")) {
    await waitFor(() => take(alone), `the turn to run alone (${testInfo.title})`, TURN_TIMEOUT_MS);
    releases.push(() => rmSync(alone, { recursive: true, force: true }));
    await waitFor(() => readdirSync(running).length === 0, `the other journeys to finish (${testInfo.title})`, TURN_TIMEOUT_MS);
  } else {
    const mark = path.join(running, `${testInfo.workerIndex}-${testInfo.testId}`);
    await waitFor(
      () => {
        writeFileSync(mark, "");
        if (!readdirSync(root).includes("alone")) return true;
        rmSync(mark, { force: true });
        return false;
      },
      `a journey running alone to finish (${testInfo.title})`,
      TURN_TIMEOUT_MS,
    );
    releases.push(() => rmSync(mark, { force: true }));
  }

  for (const tag of testInfo.tags.filter((t) => t.startsWith("@shares:")).sort()) {
    const shared = path.join(root, `shares-${tag.slice("@shares:".length)}`);
    await waitFor(() => take(shared), `the turn on ${tag} (${testInfo.title})`, TURN_TIMEOUT_MS);
    releases.push(() => rmSync(shared, { recursive: true, force: true }));
  }

  testInfo.setTimeout(timeout + (Date.now() - started));
  return () => {
    for (const release of releases.reverse()) release();
  };
}
