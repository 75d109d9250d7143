/**
 * The money scheduler (issue 5 item 4: "a scheduler for deadlines that survives restarts").
 * Deadlines are not timers held in memory: they are rows (a hold's `release_at`, a delivered
 * deal's `auto_complete_at`, a deposit withdrawal's `available_at`), so each tick asks the database what is
 * due. A restart loses nothing, and several server processes may tick at once: every job is an
 * idempotent system operation (e.g. `hold-release:{id}`), so nothing runs twice.
 */
import type { Db } from "~/db/client.server";
import { completeDueDeals } from "../deals/deals.server";
import { completeDueWithdrawals } from "./deposits.server";
import { releaseDueHolds } from "./wallet.server";

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
 * Ticks runDueMoneyJobs at start and every `intervalMs` (default MONEY_SCHEDULER_INTERVAL_MS);
 * a failing tick is logged and the next one tries again. Returns the function that stops it.
 * The timer never keeps the process alive on its own.
 */
export function startMoneyScheduler(db: Db, intervalMs: number = MONEY_SCHEDULER_INTERVAL_MS): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await runDueMoneyJobs(db);
    } catch (error) {
      console.error("money scheduler: a tick failed", error);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
