/**
 * The money workload of the cluster suite (issue 5 "Done when": ≥ 20 clients, ≥ 2 000 operations
 * with retried keys; the SIGKILL crash test): members registered through the site's forms, each
 * with its own cookie jar and CSRF token, send random money operations over HTTP — transfers,
 * held transfers, early releases, deposits, withdrawal requests and their cancellations — each
 * under an idempotency key and deliberately retried with it, sometimes concurrently, sometimes
 * after the answer, sometimes with another body (which must be refused). Then verifyLedger checks
 * the database against what the clients were told.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import postgres from "postgres";
import { expect } from "vitest";
import { openDatabase, type DatabaseHandle, type Db } from "~/db/client.server";
import { Client } from "../api/client";
import { ledgerSnapshot, operationsWithSeveralTransfers, promoteToAdmin } from "../setup/ledger";

export interface Trader {
  client: Client;
  id: number;
  username: string;
  /** From GET /api/auth/csrf, sent as X-CSRF-Token. */
  csrf: string;
}

/** RATE_LIMITS for load tests: the money limits raised far beyond what the workload sends. */
export const LOAD_TEST_RATE_LIMITS = "transfers=1000000/60,deposits=1000000/60,deals=1000000/60";

/** Registers a member on the server at `baseUrl` through the register page; signed in. */
export async function registerTrader(baseUrl: string): Promise<Trader> {
  const client = new Client(baseUrl);
  const { username } = await client.register();
  const me = (await (await client.fetch("/api/auth/me")).json()).user as { id: number };
  return { client, id: me.id, username, csrf: await client.csrfToken() };
}

export type OpKind = "topup" | "transfer" | "hold" | "release" | "deposit" | "withdrawal" | "cancel";
type Data = Record<string, unknown>;

/** One money operation (one idempotency key) and everything its requests were answered. */
export interface MoneyOp {
  actor: Trader;
  kind: OpKind;
  key: string;
  path: string;
  body: Data;
  /** The data of the first 2xx answer: the operation is acknowledged. */
  acked: Data | null;
  /** Non-2xx answers to the operation's own body. */
  refusals: { status: number; code: string }[];
  /** Requests that got no answer (the server died). */
  lost: number;
  /** 2xx answers that differed from the first one; must stay empty. */
  mismatches: Data[];
  /** The answer to the same key with another body, when tried; must be 409 idempotency_key_reused. */
  reuse: { status: number; code: string } | null;
}

/** Refusals a well-formed operation may meet in this workload (balances, pending withdrawals). */
export const EXPECTED_REFUSALS = new Set(["insufficient_funds", "insufficient_deposit", "withdrawal_pending", "withdrawal_closed"]);

/** Creates the operation (not sent yet). */
export function moneyOp(actor: Trader, kind: OpKind, path: string, body: Data): MoneyOp {
  return { actor, kind, key: randomUUID(), path, body, acked: null, refusals: [], lost: 0, mismatches: [], reuse: null };
}

/** Sends `body` under the operation's key and path once, recording nothing; null when no answer came. */
export async function postOnce(op: MoneyOp, body: Data = op.body): Promise<{ status: number; json: { data?: Data; errors?: { code: string } } } | null> {
  try {
    const response = await op.actor.client.fetch(op.path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": op.actor.csrf, "Idempotency-Key": op.key },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  } catch {
    return null;
  }
}

/** Sends the operation once and records the answer; returns false when it got none. */
export async function send(op: MoneyOp): Promise<boolean> {
  const answer = await postOnce(op);
  if (!answer) {
    op.lost += 1;
    return false;
  }
  if (answer.status >= 200 && answer.status < 300) {
    if (op.acked === null) op.acked = answer.json.data!;
    else if (!isDeepStrictEqual(answer.json.data, op.acked)) op.mismatches.push(answer.json.data!);
  } else {
    op.refusals.push({ status: answer.status, code: answer.json.errors?.code ?? "?" });
  }
  return true;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing run can be replayed by its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Runs `op` the way a flaky client would: 40 % of the time two or three copies at once, else
 * once and again after the answer; 5 % of acknowledged ones are then resent with the same key
 * and another request (amount + 1 kopeck, or a deposit for a release or a cancellation), which
 * must be refused. Returns false once a request got no answer.
 */
export async function runWithRetries(op: MoneyOp, rnd: () => number): Promise<boolean> {
  let answered: boolean[];
  if (rnd() < 0.4) {
    answered = await Promise.all(Array.from({ length: rnd() < 0.5 ? 2 : 3 }, () => send(op)));
  } else {
    answered = [await send(op)];
    if (answered[0]) answered.push(await send(op));
  }
  if (answered.includes(false)) return false;
  if (op.acked && rnd() < 0.05) {
    // Release and cancel have no amount: their key is reused for a deposit, another request too.
    const reused =
      "amount" in op.body
        ? { path: op.path, body: { ...op.body, amount: Number(op.body.amount) + 1 } }
        : { path: "/api/profile/payments/deposit", body: { amount: 100 } };
    const answer = await postOnce({ ...op, path: reused.path }, reused.body);
    if (!answer) {
      op.lost += 1;
      return false;
    }
    op.reuse = { status: answer.status, code: answer.json.errors?.code ?? "?" };
  }
  return true;
}

/** Tops every trader up by `amount` kopecks through POST /api/admin/payments/topup, each retried. */
export async function topUpAll(admin: Trader, traders: Trader[], amount: number, rnd: () => number): Promise<MoneyOp[]> {
  return Promise.all(
    traders.map(async (trader) => {
      const op = moneyOp(admin, "topup", "/api/admin/payments/topup", { memberId: trader.id, amount });
      await runWithRetries(op, rnd);
      expect(op.acked, JSON.stringify(op.refusals)).not.toBeNull();
      return op;
    }),
  );
}

export interface LoadOptions {
  traders: Trader[];
  operationsPerTrader: number;
  seed: number;
  /** Every operation created, pushed as it starts (so a crashed run still lists them). */
  ops: MoneyOp[];
  /** Called after each operation; the worker stops when it returns true. */
  stop?: () => boolean;
}

/**
 * One worker per trader, all at once, each running `operationsPerTrader` random operations:
 * transfers 35 %, held transfers 20 %, releases of its own holds 15 %, deposits 12 %,
 * withdrawal requests 10 %, cancellations 8 % (a missing hold or withdrawal becomes a transfer
 * or a deposit); 5 % of amounts are far above any balance. A worker stops at its first
 * unanswered request (the server died) or when `stop()` says so.
 */
export async function runLoad({ traders, operationsPerTrader, seed, ops, stop }: LoadOptions): Promise<void> {
  await Promise.all(
    traders.map(async (trader, index) => {
      const rnd = random(seed * 1_000 + index);
      const holds: number[] = [];
      let pendingWithdrawal: number | null = null;
      const amount = () => (rnd() < 0.05 ? 90_000_000 : 100 + Math.floor(rnd() * 20_000));
      for (let n = 0; n < operationsPerTrader && !stop?.(); n += 1) {
        const other = traders[(index + 1 + Math.floor(rnd() * (traders.length - 1))) % traders.length]!;
        const roll = rnd();
        let op: MoneyOp;
        if (roll < 0.15 && holds.length > 0) {
          const holdId = holds.splice(Math.floor(rnd() * holds.length), 1)[0]!;
          op = moneyOp(trader, "release", `/api/profile/payments/holds/${holdId}/release`, {});
        } else if (roll < 0.23 && pendingWithdrawal !== null) {
          op = moneyOp(trader, "cancel", `/api/profile/payments/deposit/withdrawal/${pendingWithdrawal}/cancel`, {});
        } else if (roll < 0.35) {
          op = moneyOp(trader, "deposit", "/api/profile/payments/deposit", { amount: amount() });
        } else if (roll < 0.45) {
          op = moneyOp(trader, "withdrawal", "/api/profile/payments/deposit/withdrawal", { amount: amount() });
        } else if (roll < 0.65) {
          op = moneyOp(trader, "hold", "/api/profile/payments/transfer", {
            recipient: other.username,
            amount: amount(),
            holdHours: 1 + Math.floor(rnd() * 720),
            memo: `hold ${n}`,
          });
        } else {
          op = moneyOp(trader, "transfer", "/api/profile/payments/transfer", { recipient: rnd() < 0.5 ? other.username : other.id, amount: amount() });
        }
        ops.push(op);
        if (!(await runWithRetries(op, rnd))) return;
        if (op.kind === "hold" && op.acked) holds.push(op.acked.holdId as number);
        if (op.kind === "withdrawal" && op.acked) pendingWithdrawal = op.acked.id as number;
        if (op.kind === "cancel" && (op.acked || op.refusals.some((r) => r.code === "withdrawal_closed"))) pendingWithdrawal = null;
      }
    }),
  );
}

/** Transfers each acknowledged operation kind makes (withdrawal requests and cancellations move nothing). */
const TRANSFERS_OF: Record<OpKind, number> = { topup: 1, transfer: 1, hold: 1, release: 1, deposit: 1, withdrawal: 0, cancel: 0 };

/**
 * Checks the database against what the clients were told (docs/product/money.md#invariants):
 * - every answer was expected: 2xx or a business refusal, identical 2xx answers per key,
 *   409 idempotency_key_reused for a key reused with another body;
 * - debits equal credits (balances sum to 0), no account but platform_funding below zero,
 *   every cached balance equals its transfers, held balances equal unreleased holds;
 * - each acknowledged operation is stored once under its key with the answered result and
 *   its transfers, no other member operation exists, no operation has several transfers;
 * - every member's available, held and deposit balance is what the acknowledged operations add up to.
 */
export async function verifyLedger(db: Db, sql: postgres.Sql, ops: MoneyOp[]): Promise<void> {
  for (const op of ops) {
    expect(op.mismatches, `${op.kind} ${op.key}: differing answers`).toEqual([]);
    for (const refusal of op.refusals)
      expect(EXPECTED_REFUSALS.has(refusal.code), `${op.kind} ${JSON.stringify(op.body)} refused ${refusal.status} ${refusal.code}`).toBe(true);
    if (op.reuse) expect(op.reuse).toEqual({ status: 409, code: "idempotency_key_reused" });
  }
  const snapshot = await ledgerSnapshot(db);
  expect(snapshot).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
  expect(await operationsWithSeveralTransfers(db)).toBe(0);

  const acked = ops.filter((op) => op.acked !== null);
  const rows = await sql<{ actor_id: number; idempotency_key: string; kind: string; result: Data; transfers: number }[]>`
    select o.actor_id, o.idempotency_key, o.kind, o.result, (select count(*)::int from ledger_transfers t where t.operation_id = o.id) as transfers
    from ledger_operations o where o.actor_id is not null`;
  const stored = new Map(rows.map((row) => [`${row.actor_id}:${row.idempotency_key}`, row]));
  for (const op of acked) {
    const row = stored.get(`${op.actor.id}:${op.key}`);
    expect(row, `acknowledged ${op.kind} ${op.key} is stored`).toBeDefined();
    expect(row!.result).toEqual(op.acked);
    expect(row!.transfers, `${op.kind} ${op.key} transfers`).toBe(TRANSFERS_OF[op.kind]);
  }
  expect(rows.length, "member operations stored = operations acknowledged").toBe(acked.length);
  expect(snapshot.transfers - (await systemTransfers(sql))).toBe(acked.reduce((sum, op) => sum + TRANSFERS_OF[op.kind], 0));

  const expected = new Map<string, number>();
  const add = (kind: string, userId: number, amount: number) => expected.set(`${kind}:${userId}`, (expected.get(`${kind}:${userId}`) ?? 0) + amount);
  const holdRecipients = new Map<number, number>();
  for (const op of acked.filter((o) => o.kind === "hold")) holdRecipients.set(op.acked!.holdId as number, (op.acked!.recipient as { id: number }).id);
  for (const op of acked) {
    const data = op.acked!;
    const amount = data.amount as number;
    if (op.kind === "topup") {
      add("member_available", data.memberId as number, amount);
      add("platform_funding", 0, -amount);
    } else if (op.kind === "transfer" || op.kind === "hold") {
      add("member_available", op.actor.id, -amount);
      add(op.kind === "hold" ? "member_held" : "member_available", (data.recipient as { id: number }).id, amount);
    } else if (op.kind === "release") {
      const recipient = holdRecipients.get(data.holdId as number)!;
      add("member_held", recipient, -amount);
      add("member_available", recipient, amount);
    } else if (op.kind === "deposit") {
      add("member_available", op.actor.id, -amount);
      add("member_deposit", op.actor.id, amount);
    }
  }
  const accounts = await sql<{ kind: string; user_id: number | null; balance: string }[]>`select kind, user_id, balance::text from ledger_accounts`;
  const actual = new Map(accounts.filter((a) => a.balance !== "0").map((a) => [`${a.kind}:${a.user_id ?? 0}`, Number(a.balance)]));
  expect(actual).toEqual(new Map([...expected].filter(([, value]) => value !== 0)));
}

/** Transfers of system operations (a scheduler releasing due holds or completing withdrawals); none are due here. */
async function systemTransfers(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from ledger_transfers t join ledger_operations o on o.id = t.operation_id where o.actor_id is null`;
  return row!.n;
}

/**
 * A throwaway PostgreSQL database on the server of TEST_DATABASE_URL for one cluster test, with
 * the environment a server process needs to use it, a postgres.js client and a Drizzle handle.
 */
export async function clusterDatabase(prefix: string) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("the cluster suite needs TEST_DATABASE_URL (a PostgreSQL server)");
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let handle: DatabaseHandle | undefined;
  let sql: postgres.Sql | undefined;
  return {
    url: url.toString(),
    // A load test: the per-member money limits (docs/product/limits.md#rate-limits) would refuse most of it.
    env: { DATABASE_URL: url.toString(), SEED_DEMO: "0", SESSION_SECRET: randomBytes(32).toString("hex"), RATE_LIMITS: LOAD_TEST_RATE_LIMITS },
    /** Opens the test's own connections (after a server applied the migrations). */
    async connect(): Promise<{ db: Db; sql: postgres.Sql }> {
      handle ??= await openDatabase({ url: url.toString(), maxConnections: 2 });
      sql ??= postgres(url.toString(), { max: 2, onnotice: () => {} });
      return { db: handle.db, sql };
    },
    async drop() {
      await handle?.close();
      await sql?.end();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Registers `count` traders and one admin (promoted in the database) on `baseUrl`. */
export async function registerTraders(baseUrl: string, db: Db, count: number): Promise<{ admin: Trader; traders: Trader[] }> {
  const traders: Trader[] = [];
  // A few at a time: registration hashes a password, and the machine has two cores.
  for (let i = 0; i < count; i += 4) traders.push(...(await Promise.all(Array.from({ length: Math.min(4, count - i) }, () => registerTrader(baseUrl)))));
  const admin = await registerTrader(baseUrl);
  await promoteToAdmin(db, admin.id);
  return { admin, traders };
}
