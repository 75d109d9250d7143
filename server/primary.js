// @ts-check
// The primary process of WEB_CONCURRENCY=N (docs/product/engineering.md#speed; issue 12): it
// forks the workers that run the server and serves nothing itself.

/**
 * Forks `count` workers and passes SIGTERM/SIGINT on to all; exits once every worker has (with
 * 1 if any failed; a worker ended by the very signal passed on, before it could handle it, did not). A worker that dies unasked stops them all with exit code 1, for the
 * supervisor to restart the service (no restart loop on a bad start-up). Never resolves.
 * @param {number} count
 * @param {{ cluster: Pick<import("node:cluster").Cluster, "fork" | "on">, logger: Pick<import("pino").Logger, "info" | "error">, signals: Pick<NodeJS.Process, "on">, exit: (code: number) => void }} host
 *   Node's cluster, the logger, the process whose signals stop the workers, and how to exit.
 * @returns {Promise<never>}
 */
export async function runPrimary(count, { cluster, logger, signals, exit }) {
  /** @type {NodeJS.Signals | undefined} */
  let stopping;
  let failed = false;
  // Kept here rather than read from cluster.workers: Node takes a worker off that list only after
  // both its 'exit' and its 'disconnect', which come in either order, so on the last 'exit' the
  // list may still hold it and nothing would be left to end the process but the drained event
  // loop (exit code 13, under the pending top-level await in server/index.js).
  /** @type {Map<number, import("node:cluster").Worker>} */
  const running = new Map();
  logger.info({ workers: count }, `Starting ${count} workers`);
  for (let i = 0; i < count; i++) {
    const worker = cluster.fork();
    running.set(worker.id, worker);
  }
  cluster.on("exit", (worker, code, signal) => {
    running.delete(worker.id);
    // A worker still starting has no handler of its own yet: the signal sent to stop it ends it.
    if (code !== 0 && !(stopping && signal === stopping)) failed = true;
    if (!stopping) {
      logger.error({ pid: worker.process.pid, code, signal }, "a worker exited: stopping the others");
      failed = true;
      stop("SIGTERM");
    }
    if (running.size === 0) exit(failed ? 1 : 0);
  });
  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    if (stopping) return;
    stopping = signal;
    logger.info(`${signal} received: stopping the workers.`);
    for (const worker of running.values()) worker.process.kill(signal);
  };
  signals.on("SIGTERM", () => stop("SIGTERM"));
  signals.on("SIGINT", () => stop("SIGINT"));
  return new Promise(() => {});
}
