/**
 * Idempotent money operations (issue 5 "every money-moving request carries an idempotency key";
 * docs/product/money.md#operations-and-idempotency: a retried request with the same idempotency key makes no second transfer).
 *
 * An operation is one transaction that starts by inserting its `ledger_operations` row. The
 * unique index on (actor, key) is the lock: a concurrent retry of the same key waits on that
 * insert, then finds the committed row and answers its stored result without running again; if
 * the first attempt rolled back, the retry's insert succeeds and it runs for real. Failed
 * operations (insufficient funds, validation) roll back with their row, so nothing of them is
 * remembered and a retry is evaluated afresh.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { ledgerOperations } from "~/db/schema";
import { Conflict, ValidationFailed } from "~/lib/errors";
import { consumeLimit, type LimitName } from "~/lib/rate-limit.server";
import { isRetryableTransactionError } from "~/db/errors";
import { IDEMPOTENCY_KEY_PATTERN as KEY_PATTERN } from "~/lib/idempotency";

/** A JSON value: what an operation may answer (it is stored and replayed as is). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

/** The operation being run, handed to its body. */
export interface Operation {
  id: number;
  actorId: number | null;
  key: string;
  kind: string;
}

/** How many times a transaction is retried on serialization failure, deadlock or a lost insert race. */
const MAX_ATTEMPTS = 8;

class LostRace extends Error {}

/** True for a key clients may send: 1–200 printable ASCII characters without spaces (a UUID, say). */
export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * SHA-256 (hex) of `kind` and `request` as canonical JSON (object keys sorted, undefined
 * fields dropped), so two requests that mean the same thing have the same fingerprint.
 */
export function fingerprintOf(kind: string, request: Json): string {
  return createHash("sha256")
    .update(canonicalJson([kind, request]))
    .digest("hex");
}

/** A committed operation as findOperation answers it. */
export interface StoredOperation {
  fingerprint: string;
  /** The stored result, replayed as is. */
  result: Json;
}

/**
 * The committed operation of `actorId` (null: the system) under idempotency key `key`, or null.
 * For operations with an outside side effect that must happen before the transaction (a payment
 * provider's charge, wallet.server.ts topUp): check here first, so a retry replays and a reused
 * key is refused (compare `fingerprint` with fingerprintOf) without touching the outside world.
 * Reads without locks; runOperation still decides a race between two first attempts.
 */
export async function findOperation(db: Db | Tx, actorId: number | null, key: string): Promise<StoredOperation | null> {
  const [row] = await db
    .select({ fingerprint: ledgerOperations.fingerprint, result: ledgerOperations.result })
    .from(ledgerOperations)
    .where(and(actorId === null ? isNull(ledgerOperations.actorId) : eq(ledgerOperations.actorId, actorId), eq(ledgerOperations.idempotencyKey, key)));
  return row ? { fingerprint: row.fingerprint, result: row.result as Json } : null;
}

/**
 * Counts a new money operation of member `actorId` against rate limit `limit`
 * (docs/product/limits.md#rate-limits); a retry of an operation already stored under `key` is
 * not counted again, so a client retrying after a lost answer is never refused for it.
 * Throws ValidationFailed (`invalid_idempotency_key`) for a bad key, RateLimited (429) past the limit.
 */
export async function limitNewOperation(db: Db, actorId: number, key: string, limit: LimitName, message: string): Promise<void> {
  assertIdempotencyKey(key);
  if (await findOperation(db, actorId, key)) return;
  await consumeLimit(db, limit, String(actorId), message);
}

/** Conflict `idempotency_key_reused` (409): the key was used for another request. */
export function idempotencyKeyReused(): Conflict {
  return new Conflict("Этот ключ идемпотентности уже использован для другого запроса", "idempotency_key_reused");
}

/** ValidationFailed `invalid_idempotency_key` (400) unless `key` is one clients may send (isValidIdempotencyKey). */
export function assertIdempotencyKey(key: string): void {
  if (!isValidIdempotencyKey(key)) {
    throw new ValidationFailed(
      "Неверный ключ идемпотентности запроса",
      { idempotencyKey: ["Нужен ключ из 1–200 видимых символов ASCII"] },
      "invalid_idempotency_key",
    );
  }
}

/**
 * Runs `body` as the operation `kind` of `actorId` (null for the system, e.g. the hold
 * scheduler) under idempotency key `key`, in one transaction, and returns its result (plain
 * JSON: it is stored in `ledger_operations.result` and replayed as is).
 *
 * - First time: inserts the operation row, runs `body(tx, operation)`, stores its result, commits.
 * - Same key and same request again (also concurrently): returns the stored result; `body` does
 *   not run, so no second transfer is made.
 * - Same key with another request (another kind, amount, recipient…): throws Conflict
 *   (`idempotency_key_reused`, 409).
 * - An invalid key throws ValidationFailed (`invalid_idempotency_key`, 400).
 * Errors thrown by `body` roll everything back and propagate. Serialization failures (40001) and
 * deadlocks (40P01) are retried; ledger code takes its locks in a fixed order, so they should
 * not happen.
 */
export async function runOperation<T>(
  db: Db,
  actorId: number | null,
  key: string,
  kind: string,
  request: Json,
  body: (tx: Tx, operation: Operation) => Promise<T>,
): Promise<T> {
  return (await runOperationDetailed(db, actorId, key, kind, request, body)).result;
}

/** runOperation, also telling whether the result was replayed (`replayed: true`: `body` did not run). */
export async function runOperationDetailed<T>(
  db: Db,
  actorId: number | null,
  key: string,
  kind: string,
  request: Json,
  body: (tx: Tx, operation: Operation) => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  assertIdempotencyKey(key);
  const fingerprint = fingerprintOf(kind, request);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(ledgerOperations)
          .values({ actorId, idempotencyKey: key, kind, fingerprint })
          .onConflictDoNothing()
          .returning({ id: ledgerOperations.id });
        if (!inserted) {
          const [existing] = await tx
            .select({ fingerprint: ledgerOperations.fingerprint, result: ledgerOperations.result })
            .from(ledgerOperations)
            .where(and(actorId === null ? isNull(ledgerOperations.actorId) : eq(ledgerOperations.actorId, actorId), eq(ledgerOperations.idempotencyKey, key)));
          if (!existing) throw new LostRace();
          if (existing.fingerprint !== fingerprint) throw idempotencyKeyReused();
          return { result: existing.result as T, replayed: true };
        }
        const result = await body(tx, { id: inserted.id, actorId, key, kind });
        await tx.update(ledgerOperations).set({ result }).where(eq(ledgerOperations.id, inserted.id));
        return { result, replayed: false };
      });
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && (error instanceof LostRace || isRetryableTransactionError(error))) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
        continue;
      }
      throw error;
    }
  }
}

function canonicalJson(value: Json | undefined): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const fields = Object.keys(value)
    .filter((name) => value[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson(value[name])}`);
  return `{${fields.join(",")}}`;
}
