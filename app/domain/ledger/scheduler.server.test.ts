import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin } from "../../../tests/setup/ledger";
import { runDueMoneyJobs } from "./scheduler.server";
import { getBalances, topUp, transferToMember } from "./wallet.server";

let t: TestDatabase;
let admin: UserRow;
beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
});
afterAll(async () => {
  await t.destroy();
});

describe(`money scheduler on ${engine}`, () => {
  it("releases a held transfer once its time has come, and only once however often it ticks", async () => {
    const [sender, recipient] = [await makeUser(t.db), await makeUser(t.db)];
    await topUp(t.db, admin.id, sender.id, 50_000, "scheduler-topup");
    const sentAt = new Date("2026-11-21T10:00:00Z");
    await transferToMember(t.db, sender.id, recipient.id, 20_000, { holdHours: 24 }, "scheduler-hold", sentAt);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 20_000, deposit: 0 });

    // Not yet due: a tick an hour before the release time changes nothing.
    expect(await runDueMoneyJobs(t.db, new Date("2026-11-22T09:00:00Z"))).toEqual({ holdsReleased: 0 });
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 20_000, deposit: 0 });

    // Due: two processes ticking at the same moment release it once between them.
    const due = new Date("2026-11-22T10:00:01Z");
    const ticks = await Promise.all([runDueMoneyJobs(t.db, due), runDueMoneyJobs(t.db, due)]);
    expect(ticks.reduce((sum, tick) => sum + tick.holdsReleased, 0)).toBe(1);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 20_000, held: 0, deposit: 0 });
    expect(await runDueMoneyJobs(t.db, new Date("2026-11-23T00:00:00Z"))).toEqual({ holdsReleased: 0 });
    expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
  });
});
