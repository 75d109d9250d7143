/**
 * A server killed in the middle of money operations (issue 5 "Done when": SIGKILL crash test;
 * docs/product/money.md#invariants: a retried request with the same idempotency key makes no second transfer):
 * a built server on a fresh PostgreSQL database serves 24 concurrent clients running random
 * money operations with retried keys; once 500 are acknowledged the server process gets
 * SIGKILL with requests in flight. Restarted on the same database and port, it is asked again
 * for every operation whose answer was lost, under its key: one that committed before the kill
 * answers its stored result, one that did not runs now. Then the ledger still balances, every
 * acknowledged operation is stored once with its transfers, and nothing was made twice.
 * Runs only in the PostgreSQL step of the tests (scripts/test.sh), on a built server.
 */
import { rmSync } from "node:fs";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { freePort, startServer, type RunningServer } from "../setup/server";
import {
  clusterDatabase,
  moneyOp,
  postOnce,
  random,
  registerTraders,
  runLoad,
  runWithRetries,
  topUpAll,
  verifyLedger,
  type MoneyOp,
  type Trader,
} from "./money-workload";

const TRADERS = 24;
const KILL_AFTER_ACKNOWLEDGED = 500;

describe("money operations across a SIGKILL of the server on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof clusterDatabase>>;
  let env: Record<string, string>;
  let baseUrl: string;
  let first: RunningServer;
  let second: RunningServer | undefined;
  let db: Db;
  let sql: postgres.Sql;
  let admin: Trader;
  let traders: Trader[];

  beforeAll(async () => {
    database = await clusterDatabase("cluster_money_crash");
    // One port for both lives of the server, so the clients (cookies, CSRF tokens) carry on.
    const port = await freePort();
    env = { ...database.env, PORT: String(port) };
    baseUrl = `http://127.0.0.1:${port}`;
    first = await startServer(env);
    ({ db, sql } = await database.connect());
    ({ admin, traders } = await registerTraders(baseUrl, db, TRADERS));
  });
  afterAll(async () => {
    // Killed by a signal, the first process has no exit code: stop() would wait for it forever.
    if (first?.process.signalCode) rmSync(first.dataDir, { recursive: true, force: true });
    else await first?.stop();
    await second?.stop();
    await database?.drop();
  });

  it("loses no acknowledged operation and makes none twice when retried after a restart", { timeout: 120_000 }, async () => {
    const ops: MoneyOp[] = await topUpAll(admin, traders, 1_000_000, random(3));
    // Answers lost on the way even before the crash (a client timing out): these transfers are
    // committed, but their clients never learn it and must retry after the restart.
    const droppedAnswers = new Map<MoneyOp, unknown>();
    for (const [index, trader] of traders.entries()) {
      const op = moneyOp(trader, "transfer", "/api/profile/payments/transfer", { recipient: traders[(index + 1) % TRADERS]!.username, amount: 1_000 });
      const answer = await postOnce(op);
      expect(answer?.status).toBe(200);
      droppedAnswers.set(op, answer!.json.data);
      op.lost += 1;
      ops.push(op);
    }
    let killed = false;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => first.process.once("exit", (_code, signal) => resolve(signal)));
    await runLoad({
      traders,
      operationsPerTrader: 60,
      seed: 23,
      ops,
      stop: () => {
        if (!killed && ops.filter((op) => op.acked !== null).length >= KILL_AFTER_ACKNOWLEDGED) {
          killed = true;
          first.process.kill("SIGKILL");
        }
        return false;
      },
    });
    expect(await exited).toBe("SIGKILL");
    const unanswered = ops.filter((op) => op.acked === null && op.lost > 0);
    // Every client was cut off in the middle of its operations, not after its last one.
    const cutOff = ops.filter((op) => op.lost > 0 && !droppedAnswers.has(op));
    expect(new Set(cutOff.map((op) => op.actor.id)).size).toBe(TRADERS);
    expect(unanswered.filter((op) => !droppedAnswers.has(op)).length).toBeGreaterThan(0);

    second = await startServer(env);
    expect(unanswered.filter((op) => droppedAnswers.has(op))).toHaveLength(TRADERS);
    const storedBefore = new Map<MoneyOp, unknown>();
    for (const op of unanswered) {
      const [row] = await sql<{ result: unknown }[]>`select result from ledger_operations where actor_id = ${op.actor.id} and idempotency_key = ${op.key}`;
      if (row) storedBefore.set(op, row.result);
    }
    // The dropped answers at least (and whatever committed just before the kill).
    expect(storedBefore.size).toBeGreaterThanOrEqual(TRADERS);
    const rnd = random(29);
    for (const op of unanswered) {
      const lost = op.lost;
      expect(await runWithRetries(op, rnd), `${op.kind} ${op.key} answered after the restart`).toBe(true);
      expect(op.lost).toBe(lost);
      // Committed before the kill: the retry answers what was stored, and moves nothing.
      if (storedBefore.has(op)) expect(op.acked).toEqual(storedBefore.get(op));
      if (droppedAnswers.has(op)) expect(op.acked).toEqual(droppedAnswers.get(op));
      expect(op.acked !== null || op.refusals.length > 0).toBe(true);
    }

    // The restarted server keeps serving the same signed-in clients.
    const lostBefore = ops.reduce((sum, op) => sum + op.lost, 0);
    await runLoad({ traders, operationsPerTrader: 10, seed: 31, ops });
    expect(ops.reduce((sum, op) => sum + op.lost, 0)).toBe(lostBefore);
    await verifyLedger(db, sql, ops);
  });
});
