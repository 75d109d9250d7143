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
 * both. The timers never keep the process alive on their own.
 */
export function startMoneyScheduler(db: Db, intervalMs: number = MONEY_SCHEDULER_INTERVAL_MS, auditIntervalMs: number = LEDGER_AUDIT_INTERVAL_MS): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await runDueMoneyJobs(db);
    } catch (error) {
      logger.error({ err: error, area: "money-scheduler" }, "a money scheduler tick failed");
    } finally {
      running = false;
    }
  };
  let auditing = false;
  const audit = async () => {
    if (auditing) return;
    auditing = true;
    try {
      await runLedgerAudit(db);
    } catch (error) {
      logger.error({ err: error, area: "ledger-audit" }, "the ledger audit failed to run");
    } finally {
      auditing = false;
    }
  };
  void tick();
  void audit();
  const timer = setInterval(() => void tick(), intervalMs);
  const auditTimer = setInterval(() => void audit(), auditIntervalMs);
  timer.unref();
  auditTimer.unref();
  return () => {
    clearInterval(timer);
    clearInterval(auditTimer);
  };
}
