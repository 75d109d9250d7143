/**
 * Runs the generator's steps on a few connections at once, each step as soon as the steps
 * it needs are done, and times them. A step's own connection is reserved for it, so its
 * session settings and statements stay together.
 */
import { performance } from "node:perf_hooks";
import type { ReservedSql, Sql } from "postgres";

export interface Step {
  name: string;
  /** The table the step writes or indexes, for the per-table summary. */
  table?: string;
  /** What the step does to its table: writes rows, puts keys and indexes back, checks foreign keys. */
  phase?: "write" | "index" | "check";
  /** Steps that must have finished first. */
  after?: string[];
  /** Runs the step; may return a short note for the log (e.g. rows written). */
  run(sql: ReservedSql): Promise<string | void>;
}

/** Steps quicker than this are not logged one by one, only counted at the end. */
const QUIET_SECONDS = 1;
/** How often the steps still running are logged. */
const HEARTBEAT_MS = 30_000;

/**
 * Runs `steps` on at most `jobs` connections of `pool`, in the order given when several are
 * ready, logging each step that took a second or more as it ends and, every half minute,
 * the steps still running. Returns each step's seconds. A failure stops new steps; the first
 * error is thrown once the running ones have ended.
 */
export async function runSteps(pool: Sql, steps: Step[], jobs: number, log: (line: string) => void): Promise<Record<string, number>> {
  const names = new Set(steps.map((s) => s.name));
  for (const step of steps) {
    for (const dep of step.after ?? []) if (!names.has(dep)) throw new Error(`step ${step.name} waits for unknown step ${dep}`);
  }
  const done = new Set<string>();
  const started = new Set<string>();
  const timings: Record<string, number> = {};
  let failure: unknown = null;
  const running = new Set<Promise<void>>();
  const runningSince = new Map<string, number>();
  const quiet = { steps: 0, seconds: 0 };

  const ready = () => steps.filter((s) => !started.has(s.name) && (s.after ?? []).every((d) => done.has(d)));
  const launch = (step: Step) => {
    started.add(step.name);
    const promise = (async () => {
      const connection = await pool.reserve();
      const begun = performance.now();
      runningSince.set(step.name, begun);
      try {
        const note = await step.run(connection);
        const seconds = (performance.now() - begun) / 1000;
        timings[step.name] = seconds;
        if (seconds >= QUIET_SECONDS) log(`  ${step.name.padEnd(40)} ${seconds.toFixed(1).padStart(7)} s${note ? `  ${note}` : ""}`);
        else [quiet.steps, quiet.seconds] = [quiet.steps + 1, quiet.seconds + seconds];
        done.add(step.name);
      } catch (error) {
        failure ??= new Error(`step ${step.name} failed: ${(error as Error).message}`, { cause: error });
      } finally {
        runningSince.delete(step.name);
        connection.release();
      }
    })();
    running.add(promise);
    void promise.finally(() => running.delete(promise));
  };

  const heartbeat = setInterval(() => {
    const now = performance.now();
    const list = [...runningSince].map(([name, since]) => `${name} (${Math.round((now - since) / 1000)} s)`).join(", ");
    log(`  … ${done.size}/${steps.length} done; running: ${list}`);
  }, HEARTBEAT_MS);
  try {
    while (done.size < steps.length && failure === null) {
      for (const step of ready()) {
        if (running.size >= jobs) break;
        launch(step);
      }
      if (running.size === 0) throw new Error(`steps waiting for each other: ${steps.filter((s) => !done.has(s.name)).map((s) => s.name).join(", ")}`);
      await Promise.race(running);
    }
    await Promise.all(running);
  } finally {
    clearInterval(heartbeat);
  }
  if (quiet.steps > 0) log(`  and ${quiet.steps} quicker steps, ${quiet.seconds.toFixed(1)} s in all`);
  if (failure !== null) throw failure;
  return timings;
}

/** Rows a statement wrote, for the log: «1 000 000 rows». */
export const rowsNote = (count: number) => `${count.toLocaleString("ru-RU")} rows`;
