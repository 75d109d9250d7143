/**
 * Property test of the ledger (issue 5 "Done when"): random sequences of top-ups, transfers
 * with and without holds, early and due releases, retries and reused keys. After every step the
 * invariants of docs/product/money.md#invariants hold, and the members' balances equal a simple model's.
 * (Deposits and deal transitions join when those steps of issue 5 land.)
 */
import fc from "fast-check";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerOperations, ledgerTransfers, users } from "~/db/schema";
import { type UserRow } from "~/domain/users/users.server";
import { AppError } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, operationsWithSeveralTransfers, promoteToAdmin } from "../../../tests/setup/ledger";
import { releaseDueHolds, releaseHold, topUp, transferToMember } from "./wallet.server";
import { getBalances } from "./balances.server";

let t: TestDatabase;
let admin: UserRow;
let run = 0;
/** What the generated sequences exercised, over all runs (a property that tests nothing should fail). */
const seen = { transfers: 0, holds: 0, releases: 0, dueReleases: 0, retries: 0, refusals: 0 };

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
});
afterAll(async () => {
  await t.destroy();
});

const MEMBERS = 4;
const member = fc.integer({ min: 0, max: MEMBERS - 1 });
const amount = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 30_000 }));
const step = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant("topup" as const), to: member, amount: fc.integer({ min: 1, max: 100_000 }) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant("transfer" as const),
      from: member,
      to: member,
      amount,
      holdHours: fc.option(fc.integer({ min: 1, max: 48 }), { nil: null }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant("release" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("advance" as const), hours: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("retry" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("reuse" as const), pick: fc.nat() }) },
);

/** An acknowledged operation: who ran it, its key, how to run it again, and what it answered. */
interface Acked {
  actorId: number;
  key: string;
  again: () => Promise<unknown>;
  changed: () => Promise<unknown>;
  answer: unknown;
}

async function insertMembers(count: number): Promise<number[]> {
  run += 1;
  const rows = await t.db
    .insert(users)
    .values(Array.from({ length: count }, (_, i) => ({ username: `prop_${run}_${i}`, email: `prop_${run}_${i}@example.test` })))
    .returning({ id: users.id });
  return rows.map((r) => r.id);
}

describe(`ledger properties on ${engine}`, () => {
  it("random money operations keep every invariant and match the model", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30, size: "max" }), async (steps) => {
        const ids = await insertMembers(MEMBERS);
        const model = ids.map(() => ({ available: 0, held: 0 }));
        const holds: { id: number; sender: number; recipient: number; amount: number; releaseAt: number; released: boolean }[] = [];
        const acked: Acked[] = [];
        let clock = Date.UTC(2100, 0, 1) + run * 1000 * 86_400_000;
        let keys = 0;
        const nextKey = () => `prop-${run}-${++keys}`;

        for (const s of steps) {
          if (s.type === "topup") {
            const key = nextKey();
            const answer = await topUp(t.db, admin.id, ids[s.to]!, s.amount, key);
            model[s.to]!.available += s.amount;
            acked.push({
              actorId: admin.id,
              key,
              answer,
              again: () => topUp(t.db, admin.id, ids[s.to]!, s.amount, key),
              changed: () => topUp(t.db, admin.id, ids[s.to]!, s.amount + 1, key),
            });
          } else if (s.type === "transfer") {
            const key = nextKey();
            const now = new Date(clock);
            const send = (value: number) => transferToMember(t.db, ids[s.from]!, ids[s.to]!, value, { holdHours: s.holdHours }, key, now);
            if (s.from === s.to) {
              await expect(send(s.amount)).rejects.toMatchObject({ code: "transfer_to_self" });
            } else if (model[s.from]!.available < s.amount) {
              await expect(send(s.amount)).rejects.toMatchObject({ code: "insufficient_funds" });
              seen.refusals += 1;
            } else {
              const answer = await send(s.amount);
              model[s.from]!.available -= s.amount;
              seen.transfers += 1;
              if (s.holdHours === null) model[s.to]!.available += s.amount;
              else {
                model[s.to]!.held += s.amount;
                seen.holds += 1;
                holds.push({
                  id: answer.holdId!,
                  sender: s.from,
                  recipient: s.to,
                  amount: s.amount,
                  releaseAt: clock + s.holdHours * 3_600_000,
                  released: false,
                });
              }
              acked.push({ actorId: ids[s.from]!, key, answer, again: () => send(s.amount), changed: () => send(s.amount + 1) });
            }
          } else if (s.type === "release") {
            if (holds.length === 0) continue;
            const hold = holds[s.pick % holds.length]!;
            const key = nextKey();
            const release = () => releaseHold(t.db, ids[hold.sender]!, hold.id, key);
            if (hold.released) {
              await expect(release()).rejects.toMatchObject({ code: "hold_already_released" });
            } else {
              const answer = await release();
              hold.released = true;
              seen.releases += 1;
              model[hold.recipient]!.held -= hold.amount;
              model[hold.recipient]!.available += hold.amount;
              acked.push({
                actorId: ids[hold.sender]!,
                key,
                answer,
                again: release,
                changed: () => releaseHold(t.db, ids[hold.sender]!, hold.id + 1_000_000, key),
              });
            }
          } else if (s.type === "advance") {
            clock += s.hours * 3_600_000;
            await releaseDueHolds(t.db, new Date(clock));
            for (const hold of holds) {
              if (!hold.released && hold.releaseAt <= clock) {
                hold.released = true;
                seen.dueReleases += 1;
                model[hold.recipient]!.held -= hold.amount;
                model[hold.recipient]!.available += hold.amount;
              }
            }
          } else if (acked.length > 0) {
            const op = acked[s.pick % acked.length]!;
            seen.retries += 1;
            if (s.type === "retry") expect(await op.again()).toEqual(op.answer);
            else await expect(op.changed()).rejects.toMatchObject({ code: "idempotency_key_reused" });
          }

          const snapshot = await ledgerSnapshot(t.db);
          expect(snapshot).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
          for (const [i, id] of ids.entries()) {
            expect(await getBalances(t.db, id)).toEqual({ ...model[i], deposit: 0 });
          }
        }

        // Every acknowledged operation is recorded exactly once, with exactly one transfer.
        for (const op of acked) {
          const rows = await t.db
            .select({ id: ledgerOperations.id })
            .from(ledgerOperations)
            .where(and(eq(ledgerOperations.actorId, op.actorId), eq(ledgerOperations.idempotencyKey, op.key)));
          expect(rows).toHaveLength(1);
          const transfers = await t.db
            .select({ id: ledgerTransfers.id })
            .from(ledgerTransfers)
            .where(inArray(ledgerTransfers.operationId, [rows[0]!.id]));
          expect(transfers).toHaveLength(1);
        }
        expect(await operationsWithSeveralTransfers(t.db)).toBe(0);
      }),
      { numRuns: engine === "PGlite" ? 40 : 50, endOnFailure: true },
    );
    expect(Object.values(seen).every((count) => count >= 1) && seen.transfers >= 20 && seen.holds >= 10, JSON.stringify(seen)).toBe(true);
  }, 180_000);

  it("refusals are AppErrors with Russian messages", async () => {
    const [a, b] = await insertMembers(2);
    const error = await transferToMember(t.db, a!, b!, 1, {}, "refused").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe("Недостаточно средств на балансе");
  });
});
