/**
 * The money API under load (issue 5 "Done when": PostgreSQL concurrency test, ≥ 20 clients,
 * ≥ 2 000 operations with retried keys): a built server on a fresh PostgreSQL database, 24
 * members registered through the site (each its own cookie jar and CSRF token) and topped up by
 * an admin, then 24 concurrent clients run 2 160 random money operations over HTTP, each retried
 * with its idempotency key at once or after the answer. The database must then show debits equal
 * to credits, no member below zero, cached balances equal to their transfers, one stored
 * operation with its transfers per acknowledged request and nothing else.
 * Runs only in the PostgreSQL step of the tests (scripts/test.sh), on a built server.
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { startServer, type RunningServer } from "../setup/server";
import { clusterDatabase, random, registerTraders, runLoad, topUpAll, verifyLedger, type MoneyOp, type Trader } from "./money-workload";

const TRADERS = 24;
const OPERATIONS_PER_TRADER = 90;

describe("money operations of 24 concurrent HTTP clients on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof clusterDatabase>>;
  let server: RunningServer;
  let db: Db;
  let sql: postgres.Sql;
  let admin: Trader;
  let traders: Trader[];

  beforeAll(async () => {
    database = await clusterDatabase("cluster_money_load");
    server = await startServer(database.env);
    ({ db, sql } = await database.connect());
    ({ admin, traders } = await registerTraders(server.baseUrl, db, TRADERS));
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("keeps the ledger balanced and every acknowledged operation exactly once", { timeout: 120_000 }, async () => {
    const ops: MoneyOp[] = await topUpAll(admin, traders, 1_000_000, random(7));
    await runLoad({ traders, operationsPerTrader: OPERATIONS_PER_TRADER, seed: 11, ops });

    expect(ops.length).toBeGreaterThanOrEqual(2_000 + TRADERS);
    expect(
      ops.filter((op) => op.lost > 0),
      `requests without an answer:\n${server.output().slice(-2_000)}`,
    ).toEqual([]);
    const acked = ops.filter((op) => op.acked !== null);
    // The workload is meant to move money, not to be refused: most operations succeed, and
    // every kind of them is exercised and retried.
    expect(acked.length).toBeGreaterThan(ops.length * 0.6);
    for (const kind of ["transfer", "hold", "release", "deposit", "withdrawal", "cancel"] as const) {
      expect(acked.filter((op) => op.kind === kind).length, kind).toBeGreaterThan(10);
    }
    expect(ops.filter((op) => op.reuse !== null).length).toBeGreaterThan(20);
    await verifyLedger(db, sql, ops);
  });
});
