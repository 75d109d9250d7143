/**
 * The ledger audit (docs/product/money.md#ledger-audit): a ledger built only through the domain
 * audits clean; a ledger drifted behind the domain's back (a cached balance edited, a transfer
 * inserted by raw SQL, a hold or deal row changed without its money) is reported, one error line
 * per drift with the account and the figures; the audit itself never changes money; the money
 * scheduler runs it at start-up.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deals, ledgerAccounts, ledgerHolds, ledgerOperations, ledgerTransfers } from "~/db/schema";
import { decideClaim, fileClaim } from "~/domain/claims/claims.server";
import { applyDealAction, createDeal } from "~/domain/deals/deals.server";
import type { DealFeePayer } from "~/domain/deals/types";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin, promoteToModerator } from "../../../tests/setup/ledger";
import { waitFor } from "../../../tests/setup/wait";
import { logger } from "~/lib/logger.server";
import { auditLedger, runLedgerAudit, type LedgerDrift } from "./audit.server";
import { cancelDepositWithdrawal, completeDueWithdrawals, depositFunds, requestDepositWithdrawal } from "./deposits.server";
import { startMoneyScheduler } from "./scheduler.server";
import { releaseDueHolds, releaseHold, topUp, transferToMember } from "./wallet.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let counter = 0;
const key = () => `audit-key-${++counter}`;
const now = new Date("2026-11-21T12:00:00Z");
const later = (days: number) => new Date(now.getTime() + days * 86_400_000);
const deadline = new Date("2026-12-01T20:59:59Z");

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  moderator = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
  await promoteToModerator(t.db, moderator.id);
});
afterAll(async () => {
  await t.destroy();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function memberWith(kopecks: number): Promise<UserRow> {
  const member = await makeUser(t.db);
  if (kopecks > 0) await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

/** A deal between two new members, taken to `state` through the domain. */
async function dealIn(state: "created" | "funded" | "completed" | "refunded" | "split" | "cancelled" | "disputed", feePayer: DealFeePayer = "buyer") {
  const buyer = await memberWith(500_000);
  const seller = await memberWith(0);
  const deal = await createDeal(
    t.db,
    buyer.id,
    { counterparty: seller.id, role: "buyer", amount: 100_000, description: "Игровой аккаунт", deadline, feePayer },
    key(),
    now,
  );
  const act = (who: UserRow, action: Parameters<typeof applyDealAction>[3], input = {}) => applyDealAction(t.db, who.id, deal.id, action, input, key(), now);
  if (state === "created") return { buyer, seller, deal };
  if (state === "cancelled") {
    await act(seller, "cancel");
    return { buyer, seller, deal };
  }
  await act(seller, "accept");
  await act(buyer, "fund");
  if (state === "funded") return { buyer, seller, deal };
  if (state === "refunded") {
    await act(buyer, "request_cancel");
    await act(seller, "agree_cancel");
    return { buyer, seller, deal };
  }
  await act(seller, "deliver");
  if (state === "completed") {
    await act(buyer, "confirm");
    return { buyer, seller, deal };
  }
  await act(buyer, "dispute", { reason: "Товар не тот" });
  if (state === "split") await act(moderator, "resolve", { resolution: "split", sellerShare: 40_000, note: "Пополам" });
  return { buyer, seller, deal };
}

/** An account id of member `userId`. */
async function accountOf(kind: "member_available" | "member_held" | "member_deposit", userId: number): Promise<number> {
  const [row] = await t.db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, kind), eq(ledgerAccounts.userId, userId)));
  return row!.id;
}

/** Every balance and the number of transfers: what the audit must leave exactly as it was. */
async function moneyState() {
  const balances = await t.db.select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance }).from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [transfers] = await t.db.select({ value: sql<number>`count(*)`.mapWith(Number) }).from(ledgerTransfers);
  return { balances, transfers: transfers!.value };
}

const ofKind = (drifts: LedgerDrift[], kind: LedgerDrift["kind"]) => drifts.filter((drift) => drift.kind === kind);

describe(`ledger audit on ${engine}`, () => {
  it("a ledger built through every money operation audits clean, and the audit logs nothing", async () => {
    // Transfers, holds released early and when due, a deposit with a completed, a cancelled and a
    // claim-compensated withdrawal history, deals in every state, an upheld claim with compensation.
    const [alice, bob] = [await memberWith(300_000), await memberWith(0)];
    await transferToMember(t.db, alice.id, bob.id, 10_000, { memo: "Спасибо" }, key());
    const early = await transferToMember(t.db, alice.id, bob.id, 5_000, { holdHours: 24 }, key(), now);
    await releaseHold(t.db, alice.id, early.holdId!, key());
    await transferToMember(t.db, alice.id, bob.id, 7_000, { holdHours: 1 }, key(), now);
    await transferToMember(t.db, alice.id, bob.id, 3_000, { holdHours: 720 }, key(), now);
    expect(await releaseDueHolds(t.db, later(1))).toBeGreaterThanOrEqual(1);

    await depositFunds(t.db, alice.id, 100_000, key());
    await requestDepositWithdrawal(t.db, alice.id, 20_000, key(), now);
    expect(await completeDueWithdrawals(t.db, later(15))).toBeGreaterThanOrEqual(1);
    const cancelled = await requestDepositWithdrawal(t.db, alice.id, 5_000, key(), later(15));
    await cancelDepositWithdrawal(t.db, alice.id, cancelled.id, key());

    for (const state of ["created", "cancelled", "funded", "refunded", "completed", "disputed", "split"] as const) await dealIn(state, "split");
    await dealIn("completed", "seller");

    const claim = await fileClaim(t.db, bob.id, { accused: alice.id, amount: 50_000, description: "Не передал обещанный аккаунт", evidence: [] }, key());
    await decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Доказано", compensation: 30_000 }, key());

    const errors = vi.spyOn(logger, "error");
    const before = await moneyState();
    const report = await runLedgerAudit(t.db);
    expect(report.drifts).toEqual([]);
    expect(report.transfers).toBe(before.transfers);
    expect(report.accounts).toBe(before.balances.length);
    expect(errors).not.toHaveBeenCalled();
    expect(await moneyState()).toEqual(before);
    expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
  });

  it("sees no drift while money moves: every audit reads one consistent snapshot", async () => {
    // Meaningful on PostgreSQL, where the audits really overlap the operations' transactions.
    const members = [await memberWith(100_000), await memberWith(100_000), await memberWith(100_000), await memberWith(100_000)];
    const moves = Array.from({ length: 40 }, (_, i) => {
      const [from, to] = [members[i % 4]!, members[(i + 1 + (i % 3)) % 4]!];
      return from.id === to.id ? Promise.resolve() : transferToMember(t.db, from.id, to.id, 100 + i, { holdHours: i % 2 ? 1 : null }, key(), now);
    });
    const audits = Array.from({ length: 5 }, () => auditLedger(t.db));
    const [, reports] = await Promise.all([Promise.all(moves), Promise.all(audits)]);
    for (const report of reports) expect(report.drifts).toEqual([]);
    expect((await auditLedger(t.db)).drifts).toEqual([]);
  });

  it("reports a cached balance changed behind the ledger's back: the account, both figures, the unbalanced total — and changes nothing", async () => {
    const member = await memberWith(25_000);
    const account = await accountOf("member_available", member.id);
    await t.db
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} + 1234` })
      .where(eq(ledgerAccounts.id, account));

    const errors = vi.spyOn(logger, "error").mockImplementation(() => {});
    const before = await moneyState();
    const report = await runLedgerAudit(t.db);
    expect(ofKind(report.drifts, "balance_mismatch")).toEqual([
      {
        kind: "balance_mismatch",
        accountId: account,
        message: `balance_mismatch: account ${account} (member_available of member ${member.id}): cached balance 26234 kopecks, its transfers say 25000 (credits 25000 − debits 0)`,
      },
    ]);
    expect(ofKind(report.drifts, "unbalanced")).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^unbalanced: the cached balances of all accounts sum to 1234 kopecks, not 0/) }),
    ]);
    // One error line per drift, each naming what drifted.
    expect(errors.mock.calls.map((args) => args[1])).toEqual(report.drifts.map((drift) => `ledger audit: ${drift.message}`));
    expect(await moneyState()).toEqual(before);

    // Put it back (a person's correction, not the audit's) so later cases start from a clean ledger.
    await t.db
      .update(ledgerAccounts)
      .set({ balance: sql`${ledgerAccounts.balance} - 1234` })
      .where(eq(ledgerAccounts.id, account));
    expect((await auditLedger(t.db)).drifts).toEqual([]);
  });

  it("reports a transfer inserted by raw SQL: both accounts' balances, the broken balance history, a member account below zero", async () => {
    const [payer, payee] = [await memberWith(10_000), await memberWith(1)];
    const [from, to] = [await accountOf("member_available", payer.id), await accountOf("member_available", payee.id)];
    const [operation] = await t.db
      .insert(ledgerOperations)
      .values({ actorId: null, idempotencyKey: `raw-${key()}`, kind: "raw", fingerprint: "raw" })
      .returning({ id: ledgerOperations.id });
    // 15 000 kopecks out of an account holding 10 000, balances after written as if all were well.
    const [raw] = await t.db
      .insert(ledgerTransfers)
      .values({
        operationId: operation!.id,
        kind: "transfer",
        debitAccountId: from,
        creditAccountId: to,
        amount: 15_000,
        debitBalanceAfter: 0,
        creditBalanceAfter: 1,
      })
      .returning({ id: ledgerTransfers.id });

    const drifts = (await auditLedger(t.db)).drifts;
    expect(ofKind(drifts, "balance_mismatch").map((drift) => drift.message)).toEqual([
      `balance_mismatch: account ${from} (member_available of member ${payer.id}): cached balance 10000 kopecks, its transfers say -5000 (credits 10000 − debits 15000)`,
      `balance_mismatch: account ${to} (member_available of member ${payee.id}): cached balance 1 kopecks, its transfers say 15001 (credits 15001 − debits 0)`,
    ]);
    expect(ofKind(drifts, "negative_balance")).toEqual([
      {
        kind: "negative_balance",
        accountId: from,
        message: `negative_balance: account ${from} (member_available of member ${payer.id}) is below zero: cached balance 10000 kopecks, by its transfers -5000`,
      },
    ]);
    expect(ofKind(drifts, "balance_history").map((drift) => drift.message)).toEqual([
      `balance_history: account ${from} (member_available of member ${payer.id}): transfer ${raw!.id} records a balance after it of 0 kopecks, the account's transfers up to it sum to -5000`,
      `balance_history: account ${to} (member_available of member ${payee.id}): transfer ${raw!.id} records a balance after it of 1 kopecks, the account's transfers up to it sum to 15001`,
    ]);
    // Debits still equal credits: one row moved money from one account to another.
    expect(ofKind(drifts, "unbalanced")).toEqual([]);
  });

  it("reports a hold marked released without its release transfer, and a deal moved on without its escrow", async () => {
    const [sender, recipient] = [await memberWith(50_000), await memberWith(0)];
    const held = await transferToMember(t.db, sender.id, recipient.id, 8_000, { holdHours: 48 }, key(), now);
    await t.db.update(ledgerHolds).set({ releasedAt: now, releaseTransferId: held.transferId }).where(eq(ledgerHolds.id, held.holdId!));
    const heldAccount = await accountOf("member_held", recipient.id);

    const { deal } = await dealIn("funded");
    await t.db.update(deals).set({ state: "completed" }).where(eq(deals.id, deal.id));

    const drifts = (await auditLedger(t.db)).drifts;
    expect(ofKind(drifts, "held_mismatch")).toContainEqual({
      kind: "held_mismatch",
      accountId: heldAccount,
      message: `held_mismatch: account ${heldAccount} (member_held of member ${recipient.id}): held balance 8000 kopecks, the member's 0 unreleased incoming holds sum to 0`,
    });
    expect(ofKind(drifts, "hold_transfer").map((drift) => drift.message)).toContain(
      `hold_transfer: hold ${held.holdId} of 8000 kopecks: its transfer ${held.transferId} is a hold of 8000, its release transfer ${held.transferId} a hold of 8000`,
    );
    expect(ofKind(drifts, "escrow_mismatch").map((drift) => drift.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^escrow_mismatch: account \\d+ \\(escrow deal:${deal.id}\\): holds 105000 kopecks, deal ${deal.id} is completed, so it should hold 0$`),
      ),
    );
    expect(ofKind(drifts, "deal_fee").map((drift) => drift.message)).toContain(
      `deal_fee: deal ${deal.id} is completed: the platform took 0 kopecks of fee from its escrow, it should have taken 5000`,
    );
  });

  it("the money scheduler audits at start-up and logs each drift at error level", async () => {
    // The ledger above is drifted on purpose; a scheduler starting on it says so at once.
    const errors = vi.spyOn(logger, "error").mockImplementation(() => {});
    const stop = startMoneyScheduler(t.db, 3_600_000, 3_600_000);
    try {
      const lines = await waitFor(() => {
        const logged = errors.mock.calls.map((args) => String(args[1])).filter((line) => line.startsWith("ledger audit: "));
        return logged.some((line) => line.startsWith("ledger audit: negative_balance:")) && logged;
      }, "the start-up audit's error lines");
      expect(lines.some((line) => line.startsWith("ledger audit: balance_mismatch: account "))).toBe(true);
    } finally {
      await stop();
    }
  });
});
