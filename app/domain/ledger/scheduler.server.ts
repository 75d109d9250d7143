/**
 * The money scheduler (issue 5 item 4: "a scheduler for deadlines that survives restarts").
 * Deadlines are not timers held in memory: they are rows (a hold's `release_at`, a delivered
 * deal's `auto_complete_at`, a deposit withdrawal's `available_at`), so each tick asks the database what is
 * due. A restart loses nothing, and several server processes may tick at once: every job is an
 * idempotent system operation (e.g. `hold-release:{id}`), so nothing runs twice.
 *
 * The scheduler also runs the ledger audit (audit.server.ts) at start-up and hourly: a read-only
 * check of the money invariants that logs every drift at error level and never changes money.
 */
import type { Db } from "~/db/client.server";
import { completeDueDeals } from "../deals/deals.server";
import { LEDGER_AUDIT_INTERVAL_MS, runLedgerAudit } from "./audit.server";
import { completeDueWithdrawals } from "./deposits.server";
import { releaseDueHolds } from "./wallet.server";
import { logger } from "~/lib/logger.server";

/** How often the scheduler looks for due work (ms). */
export const MONEY_SCHEDULER_INTERVAL_MS = 30_000;

/** What one tick did. */
export interface DueJobsResult {
  /** Held transfers released to their recipients (docs/product/money.md#holds). */
  holdsReleased: number;
  /** Deposit withdrawals paid out after their 14 days (docs/product/money.md#deposits). */
  withdrawalsCompleted: number;
  /** Delivered deals completed 72 hours after delivery (docs/product/deals.md#automatic-completion). */
  dealsCompleted: number;
}

/**
 * Runs every money job due at `now` once; safe to call concurrently from several processes. Each
 * job logs and skips a row that fails (the next tick retries it), so one bad row never blocks
 * the rest of its job nor the jobs after it.
 */
export async function runDueMoneyJobs(db: Db, now: Date = new Date()): Promise<DueJobsResult> {
  return {
    holdsReleased: await releaseDueHolds(db, now),
    withdrawalsCompleted: await completeDueWithdrawals(db, now),
    dealsCompleted: await completeDueDeals(db, now),
  };
}

/**
 * Ticks runDueMoneyJobs at start and every `intervalMs` (default MONEY_SCHEDULER_INTERVAL_MS),
 * and audits the ledger (runLedgerAudit: read-only, drifts logged at error level) at start and
 * every `auditIntervalMs` (default LEDGER_AUDIT_INTERVAL_MS, hourly). A failing tick or audit is
 * logged and the next one tries again; neither overlaps itself. Returns the function that stops
 * both: it resolves once a money tick already under way has finished, so the database can be
 * closed after it without cutting a job off halfway. An audit under way is not waited for: it
 * only reads, and a shutdown has 10 s (server/index.js). The timers never keep the process alive
 * on their own.
 */
export function startMoneyScheduler(
  db: Db,
  intervalMs: number = MONEY_SCHEDULER_INTERVAL_MS,
  auditIntervalMs: number = LEDGER_AUDIT_INTERVAL_MS,
): () => Promise<void> {
  const tick = notOverlapping(() => runDueMoneyJobs(db), "money-scheduler", "a money scheduler tick failed");
  const audit = notOverlapping(() => runLedgerAudit(db), "ledger-audit", "the ledger audit failed to run");
  void tick.run();
  void audit.run();
  const timer = setInterval(() => void tick.run(), intervalMs);
  const auditTimer = setInterval(() => void audit.run(), auditIntervalMs);
  timer.unref();
  auditTimer.unref();
  return async () => {
    clearInterval(timer);
    clearInterval(auditTimer);
    await tick.current();
  };
}

/**
 * `job` run so that a call while it is under way starts nothing new; a failure is logged at error
 * level under `area`. `current()` is the run under way (resolving when it ends), if any.
 */
function notOverlapping(job: () => Promise<unknown>, area: string, message: string) {
  let running: Promise<void> | undefined;
  return {
    run(): Promise<void> {
      running ??= job()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error, area }, message),
        )
        .finally(() => {
          running = undefined;
        });
      return running;
    },
    current: (): Promise<void> | undefined => running,
  };
}
