import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerAccounts, ledgerHolds, ledgerOperations, ledgerTransfers, users } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { Conflict, InsufficientFunds, NotFound } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { postTransfers } from "./ledger.server";
import { MAX_OPERATION_KOPECKS } from "./money";
import { runOperation } from "./operations.server";
import { ledgerSnapshot, promoteToAdmin } from "../../../tests/setup/ledger";
import { listMemberHolds } from "./holds.server";
import { previewTransfer, releaseDueHolds, releaseHold, topUp, transferToMember, type PaymentProvider } from "./wallet.server";
import { getBalances, listBalanceLog } from "./balances.server";

let t: TestDatabase;
let admin: UserRow;
let keyCounter = 0;
const key = () => `key-${++keyCounter}`;
const firstPage = { page: 1, perPage: 10 };

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
});
afterAll(async () => {
  await t.destroy();
});

async function funded(kopecks: number): Promise<UserRow> {
  const member = await makeUser(t.db);
  if (kopecks > 0) await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

async function expectInvariants() {
  const snapshot = await ledgerSnapshot(t.db);
  expect(snapshot).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [], driftedHolds: 0 });
}

describe(`ledger schema on ${engine}`, () => {
  it("the migration creates one platform_fee and one platform_funding account", async () => {
    const rows = await t.db
      .select({ kind: ledgerAccounts.kind })
      .from(ledgerAccounts)
      .where(sql`${ledgerAccounts.userId} is null`);
    expect(rows.map((r) => r.kind).sort()).toEqual(["platform_fee", "platform_funding"]);
  });

  it("transfers are immutable: UPDATE and DELETE are refused by the trigger", async () => {
    const member = await funded(1_000);
    const [transfer] = await t.db.select({ id: ledgerTransfers.id }).from(ledgerTransfers).limit(1);
    await expect(t.db.update(ledgerTransfers).set({ amount: 1 }).where(eq(ledgerTransfers.id, transfer!.id))).rejects.toThrow();
    await expect(t.db.delete(ledgerTransfers).where(eq(ledgerTransfers.id, transfer!.id))).rejects.toThrow();
    expect(await getBalances(t.db, member.id)).toEqual({ available: 1_000, held: 0, deposit: 0 });
    await expectInvariants();
  });

  it("a CHECK constraint refuses a member balance below zero even when written directly", async () => {
    const member = await funded(500);
    await expect(
      t.db
        .update(ledgerAccounts)
        .set({ balance: -1 })
        .where(sql`${ledgerAccounts.userId} = ${member.id} and ${ledgerAccounts.kind} = 'member_available'`),
    ).rejects.toThrow();
  });

  it("postTransfers refuses to overdraw any account but platform_funding and writes nothing", async () => {
    const member = await funded(100);
    const before = await ledgerSnapshot(t.db);
    await expect(
      runOperation(t.db, member.id, key(), "test", {}, (tx, op) =>
        postTransfers(tx, op.id, [
          { kind: "transfer", from: { kind: "member_available", userId: member.id }, to: { kind: "platform_fee" }, amount: 60 },
          { kind: "transfer", from: { kind: "member_available", userId: member.id }, to: { kind: "platform_fee" }, amount: 60 },
        ]),
      ),
    ).rejects.toBeInstanceOf(InsufficientFunds);
    const after = await ledgerSnapshot(t.db);
    expect(after.transfers).toBe(before.transfers);
    expect(after.operations).toBe(before.operations);
  });
});

describe(`top-ups on ${engine}`, () => {
  it("an admin credits a member through the payment provider; the balance log shows it", async () => {
    const calls: unknown[] = [];
    const provider: PaymentProvider = { id: "fake", collect: async (input) => (calls.push(input), { providerReference: "ref-1" }) };
    const member = await makeUser(t.db);
    const result = await topUp(t.db, admin.id, member.id, 123_450, "topup-1", provider);
    expect(result).toMatchObject({ memberId: member.id, amount: 123_450, balanceAfter: 123_450 });
    expect(calls).toEqual([{ memberId: member.id, amount: 123_450, idempotencyKey: `${admin.id}:topup-1` }]);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 123_450, held: 0, deposit: 0 });
    const log = await listBalanceLog(t.db, member.id, firstPage);
    expect(log.items).toEqual([
      { id: result.transferId, type: "topup", amount: 123_450, counterparty: null, memo: null, createdAt: expect.any(String), balanceAfter: 123_450 },
    ]);
    await expectInvariants();
  });

  it("only admins top up; bad amounts and unknown members are refused", async () => {
    const member = await makeUser(t.db);
    await expect(topUp(t.db, member.id, member.id, 100, key())).rejects.toMatchObject({ status: 403, code: "not_admin" });
    for (const amount of [0, -5, 1.5, MAX_OPERATION_KOPECKS + 1, Number.NaN]) {
      await expect(topUp(t.db, admin.id, member.id, amount, key())).rejects.toMatchObject({
        status: 400,
        code: "invalid_amount",
        message: "Сумма — от 0,01 до 10 000 000 ₽",
      });
    }
    await expect(topUp(t.db, admin.id, 2_147_483_647, 100, key())).rejects.toMatchObject({ status: 404, code: "member_not_found" });
    await expect(topUp(t.db, admin.id, member.id, 100, "bad key with spaces")).rejects.toMatchObject({ status: 400, code: "invalid_idempotency_key" });
    expect(await getBalances(t.db, member.id)).toEqual({ available: 0, held: 0, deposit: 0 });
  });

  it("a retry with the same key returns the same answer and credits once; another request with it is a conflict", async () => {
    const member = await makeUser(t.db);
    const first = await topUp(t.db, admin.id, member.id, 5_000, "same-key");
    const again = await topUp(t.db, admin.id, member.id, 5_000, "same-key");
    expect(again).toEqual(first);
    expect((await getBalances(t.db, member.id)).available).toBe(5_000);
    await expect(topUp(t.db, admin.id, member.id, 6_000, "same-key")).rejects.toMatchObject({ status: 409, code: "idempotency_key_reused" });
    // Keys are scoped by actor: another admin may use the same key.
    const otherAdmin = await makeUser(t.db);
    await promoteToAdmin(t.db, otherAdmin.id);
    await topUp(t.db, otherAdmin.id, member.id, 6_000, "same-key");
    expect((await getBalances(t.db, member.id)).available).toBe(11_000);
    await expectInvariants();
  });

  it("the provider charges only a new key: a retry replays and a reused key is refused before anything is collected", async () => {
    let collected = 0;
    const provider: PaymentProvider = { id: "counting", collect: async (input) => ((collected += 1), { providerReference: `ref-${input.idempotencyKey}` }) };
    const member = await makeUser(t.db);
    const first = await topUp(t.db, admin.id, member.id, 7_000, "charge-once", provider);
    expect(collected).toBe(1);
    expect(await topUp(t.db, admin.id, member.id, 7_000, "charge-once", provider)).toEqual(first);
    expect(collected).toBe(1);
    await expect(topUp(t.db, admin.id, member.id, 8_000, "charge-once", provider)).rejects.toMatchObject({ status: 409, code: "idempotency_key_reused" });
    const other = await makeUser(t.db);
    await expect(topUp(t.db, admin.id, other.id, 7_000, "charge-once", provider)).rejects.toMatchObject({ status: 409, code: "idempotency_key_reused" });
    await expect(topUp(t.db, admin.id, member.id, 7_000, "bad key", provider)).rejects.toMatchObject({ status: 400, code: "invalid_idempotency_key" });
    expect(collected).toBe(1);
    expect(await getBalances(t.db, member.id)).toEqual({ available: 7_000, held: 0, deposit: 0 });
    expect(await getBalances(t.db, other.id)).toEqual({ available: 0, held: 0, deposit: 0 });
  });
});

describe(`transfers on ${engine}`, () => {
  it("moves money between members by username or id, with a memo and both balance logs", async () => {
    const [sender, recipient] = [await funded(10_000), await makeUser(t.db)];
    const result = await transferToMember(t.db, sender.id, `@${recipient.username.toUpperCase()}`, 2_550, { memo: "  за аккаунт  " }, key());
    expect(result).toMatchObject({
      amount: 2_550,
      recipient: { id: recipient.id, username: recipient.username },
      holdId: null,
      releaseAt: null,
      balanceAfter: 7_450,
    });
    await transferToMember(t.db, sender.id, recipient.id, 450, {}, key());
    expect(await getBalances(t.db, sender.id)).toEqual({ available: 7_000, held: 0, deposit: 0 });
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 3_000, held: 0, deposit: 0 });

    const senderLog = await listBalanceLog(t.db, sender.id, firstPage);
    expect(senderLog.total).toBe(3);
    expect(senderLog.items.map((e) => [e.type, e.amount, e.balanceAfter, e.counterparty?.id ?? null, e.memo])).toEqual([
      ["transfer_out", -450, 7_000, recipient.id, null],
      ["transfer_out", -2_550, 7_450, recipient.id, "за аккаунт"],
      ["topup", 10_000, 10_000, null, null],
    ]);
    const recipientLog = await listBalanceLog(t.db, recipient.id, { page: 2, perPage: 1 });
    expect(recipientLog).toMatchObject({ total: 2, totalPages: 2 });
    expect(recipientLog.items).toEqual([
      {
        id: result.transferId,
        type: "transfer_in",
        amount: 2_550,
        counterparty: { id: sender.id, username: sender.username, image: null, ranks: [] },
        memo: "за аккаунт",
        createdAt: expect.any(String),
        balanceAfter: 2_550,
      },
    ]);
    await expectInvariants();
  });

  it("insufficient funds refuse the transfer in Russian and change nothing", async () => {
    const [sender, recipient] = [await funded(1_000), await makeUser(t.db)];
    const before = await ledgerSnapshot(t.db);
    await expect(transferToMember(t.db, sender.id, recipient.id, 1_001, {}, "short")).rejects.toMatchObject({
      status: 422,
      code: "insufficient_funds",
      message: "Недостаточно средств на балансе",
    });
    await expect(transferToMember(t.db, sender.id, recipient.id, 1_001, { holdHours: 24 }, key())).rejects.toBeInstanceOf(InsufficientFunds);
    const after = await ledgerSnapshot(t.db);
    expect([after.transfers, after.operations]).toEqual([before.transfers, before.operations]);
    expect(await getBalances(t.db, sender.id)).toEqual({ available: 1_000, held: 0, deposit: 0 });
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 0, deposit: 0 });
    // Nothing was remembered of the failed attempt: the same key works once funds suffice.
    await topUp(t.db, admin.id, sender.id, 1, key());
    await expect(transferToMember(t.db, sender.id, recipient.id, 1_001, {}, "short")).resolves.toMatchObject({ balanceAfter: 0 });
  });

  it("refuses transfers to oneself, to unknown members, and bad amounts, holds and memos", async () => {
    const sender = await funded(1_000);
    await expect(transferToMember(t.db, sender.id, sender.username, 100, {}, key())).rejects.toMatchObject({
      status: 400,
      code: "transfer_to_self",
      message: "Нельзя перевести деньги самому себе",
    });
    await expect(transferToMember(t.db, sender.id, "nobody_here_42", 100, {}, key())).rejects.toMatchObject({ status: 404, code: "recipient_not_found" });
    await expect(transferToMember(t.db, sender.id, 2_147_483_648, 100, {}, key())).rejects.toBeInstanceOf(NotFound);
    const recipient = await makeUser(t.db);
    await expect(transferToMember(t.db, sender.id, recipient.id, 0, {}, key())).rejects.toMatchObject({ code: "invalid_amount" });
    await expect(transferToMember(t.db, sender.id, recipient.id, 100, { holdHours: 0 }, key())).rejects.toMatchObject({ code: "invalid_hold" });
    await expect(transferToMember(t.db, sender.id, recipient.id, 100, { holdHours: 721 }, key())).rejects.toMatchObject({ code: "invalid_hold" });
    await expect(transferToMember(t.db, sender.id, recipient.id, 100, { memo: "я".repeat(501) }, key())).rejects.toMatchObject({ code: "invalid_memo" });
    // Text PostgreSQL cannot store (NUL) or jsonb cannot hold (a lone surrogate) is a 400, not a database error.
    for (const text of ["за\u0000аккаунт", "за аккаунт \ud800", "\udfff"]) {
      await expect(transferToMember(t.db, sender.id, recipient.id, 100, { memo: text }, key())).rejects.toMatchObject({ status: 400, code: "invalid_text" });
      await expect(transferToMember(t.db, sender.id, `${recipient.username}${text}`, 100, {}, key())).rejects.toMatchObject({
        status: 400,
        code: "invalid_text",
      });
    }
    expect((await getBalances(t.db, sender.id)).available).toBe(1_000);
  });

  it("a retried transfer moves money once; the same key for another amount or recipient is a conflict", async () => {
    const [sender, recipient, other] = [await funded(5_000), await makeUser(t.db), await makeUser(t.db)];
    const first = await transferToMember(t.db, sender.id, recipient.username, 1_000, {}, "pay-1");
    const retries = await Promise.all([1, 2, 3].map(() => transferToMember(t.db, sender.id, recipient.id, 1_000, {}, "pay-1")));
    for (const retry of retries) expect(retry).toEqual(first);
    expect((await getBalances(t.db, sender.id)).available).toBe(4_000);
    await expect(transferToMember(t.db, sender.id, recipient.id, 1_001, {}, "pay-1")).rejects.toBeInstanceOf(Conflict);
    await expect(transferToMember(t.db, sender.id, other.id, 1_000, {}, "pay-1")).rejects.toMatchObject({ code: "idempotency_key_reused" });
    await expect(transferToMember(t.db, sender.id, recipient.id, 1_000, { holdHours: 1 }, "pay-1")).rejects.toMatchObject({ code: "idempotency_key_reused" });
    const transfers = await t.db
      .select({ id: ledgerTransfers.id })
      .from(ledgerTransfers)
      .innerJoin(ledgerOperations, eq(ledgerOperations.id, ledgerTransfers.operationId))
      .where(sql`${ledgerOperations.actorId} = ${sender.id} and ${ledgerOperations.idempotencyKey} = 'pay-1'`);
    expect(transfers).toHaveLength(1);
    await expectInvariants();
  });
});

describe(`the transfer confirmation step on ${engine}`, () => {
  it("previewTransfer resolves the recipient and shows the fee and balance after without moving money", async () => {
    const sender = await funded(1_000);
    const recipient = await makeUser(t.db);
    const before = await ledgerSnapshot(t.db);
    const preview = await previewTransfer(t.db, sender.id, `@${recipient.username.toUpperCase()}`, 300, { holdHours: 5, memo: "  за ключ " });
    expect(preview).toEqual({
      recipient: expect.objectContaining({ id: recipient.id, username: recipient.username }),
      amount: 300,
      fee: 0,
      holdHours: 5,
      memo: "за ключ",
      balanceBefore: 1_000,
      balanceAfter: 700,
    });
    expect(await ledgerSnapshot(t.db)).toEqual(before);
    expect(await getBalances(t.db, sender.id)).toEqual({ available: 1_000, held: 0, deposit: 0 });
  });

  it("previewTransfer refuses what the transfer would refuse: short balance, oneself, unknown members, bad holds", async () => {
    const sender = await funded(500);
    const recipient = await makeUser(t.db);
    await expect(previewTransfer(t.db, sender.id, recipient.username, 501, {})).rejects.toMatchObject({ code: "insufficient_funds" });
    await expect(previewTransfer(t.db, sender.id, sender.username, 100, {})).rejects.toMatchObject({ code: "transfer_to_self" });
    await expect(previewTransfer(t.db, sender.id, "nobody_here_at_all", 100, {})).rejects.toBeInstanceOf(NotFound);
    await expect(previewTransfer(t.db, sender.id, recipient.username, 100, { holdHours: 0 })).rejects.toMatchObject({ code: "invalid_hold" });
    await expect(previewTransfer(t.db, sender.id, recipient.username, 0, {})).rejects.toMatchObject({ code: "invalid_amount" });
    expect(await getBalances(t.db, sender.id)).toEqual({ available: 500, held: 0, deposit: 0 });
  });
});

describe(`held transfers on ${engine}`, () => {
  it("a hold goes to the recipient's held balance; the sender releases it early, once", async () => {
    const [sender, recipient] = [await funded(10_000), await makeUser(t.db)];
    const now = new Date("2030-01-01T00:00:00Z");
    const sent = await transferToMember(t.db, sender.id, recipient.id, 3_000, { holdHours: 48, memo: "гарант" }, key(), now);
    expect(sent).toMatchObject({ holdId: expect.any(Number), releaseAt: "2030-01-03T00:00:00.000Z", balanceAfter: 7_000 });
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 0, held: 3_000, deposit: 0 });
    expect((await listBalanceLog(t.db, sender.id, firstPage)).items[0]).toMatchObject({
      type: "hold_out",
      amount: -3_000,
      counterparty: { id: recipient.id },
      balanceAfter: 7_000,
    });
    await expectInvariants();

    await expect(releaseHold(t.db, recipient.id, sent.holdId!, key())).rejects.toMatchObject({ status: 404, code: "hold_not_found" });
    await expect(releaseHold(t.db, sender.id, 2_147_483_647, key())).rejects.toMatchObject({ code: "hold_not_found" });
    const released = await releaseHold(t.db, sender.id, sent.holdId!, "release-1");
    expect(released).toMatchObject({ holdId: sent.holdId, released: true, amount: 3_000 });
    expect(await releaseHold(t.db, sender.id, sent.holdId!, "release-1")).toEqual(released);
    await expect(releaseHold(t.db, sender.id, sent.holdId!, key())).rejects.toMatchObject({ status: 409, code: "hold_already_released" });
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 3_000, held: 0, deposit: 0 });
    expect((await listBalanceLog(t.db, recipient.id, firstPage)).items).toEqual([
      {
        id: released.transferId,
        type: "hold_release",
        amount: 3_000,
        counterparty: { id: sender.id, username: sender.username, image: null, ranks: [] },
        memo: null,
        createdAt: expect.any(String),
        balanceAfter: 3_000,
      },
    ]);
    // The scheduler does not release it again.
    expect(await releaseDueHolds(t.db, new Date("2031-01-01T00:00:00Z"))).toBe(0);
    await expectInvariants();
  });

  it("releaseDueHolds releases exactly the holds that are due, once, even when runs overlap", async () => {
    const [sender, recipient] = [await funded(10_000), await makeUser(t.db)];
    const now = new Date("2040-01-01T00:00:00Z");
    const soon = await transferToMember(t.db, sender.id, recipient.id, 1_000, { holdHours: 1 }, key(), now);
    const later = await transferToMember(t.db, sender.id, recipient.id, 2_000, { holdHours: 10 }, key(), now);
    const inTwoHours = new Date("2040-01-01T02:00:00Z");
    const counts = await Promise.all([releaseDueHolds(t.db, inTwoHours), releaseDueHolds(t.db, inTwoHours)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 1_000, held: 2_000, deposit: 0 });
    const [soonRow] = await t.db.select().from(ledgerHolds).where(eq(ledgerHolds.id, soon.holdId!));
    expect(soonRow!.releasedAt).not.toBeNull();
    expect(await releaseDueHolds(t.db, new Date("2040-01-01T10:00:00Z"))).toBe(1);
    expect(await getBalances(t.db, recipient.id)).toEqual({ available: 3_000, held: 0, deposit: 0 });
    await expect(releaseHold(t.db, sender.id, later.holdId!, key())).rejects.toMatchObject({ code: "hold_already_released" });
    await expectInvariants();
  });
});

describe(`the wallet page's holds and log types on ${engine}`, () => {
  it("lists unreleased holds both ways, soonest first, with the other member (ranks for the scam overlay) and memo", async () => {
    const [sender, recipient] = [await funded(10_000), await makeUser(t.db)];
    const now = new Date("2050-01-01T00:00:00Z");
    const later = await transferToMember(t.db, sender.id, recipient.id, 2_000, { holdHours: 48, memo: "за аккаунт" }, key(), now);
    const sooner = await transferToMember(t.db, sender.id, recipient.username, 1_000, { holdHours: 2 }, key(), now);
    const released = await transferToMember(t.db, sender.id, recipient.id, 500, { holdHours: 5 }, key(), now);
    await releaseHold(t.db, sender.id, released.holdId!, key());
    await transferToMember(t.db, sender.id, recipient.id, 100, {}, key(), now);
    // An upheld claim made the recipient a SCAMMER: the list carries the rank, so the page shows the overlay.
    await t.db.update(users).set({ scammer: true }).where(eq(users.id, recipient.id));

    const senderHolds = await listMemberHolds(t.db, sender.id);
    expect(senderHolds).toMatchObject({ incoming: [], outgoingTotal: 2, incomingTotal: 0 });
    expect(senderHolds.outgoing).toEqual([
      {
        id: sooner.holdId,
        amount: 1_000,
        counterparty: { id: recipient.id, username: recipient.username, image: null, ranks: ["SCAMMER"] },
        memo: null,
        createdAt: expect.any(String),
        releaseAt: "2050-01-01T02:00:00.000Z",
      },
      {
        id: later.holdId,
        amount: 2_000,
        counterparty: { id: recipient.id, username: recipient.username, image: null, ranks: ["SCAMMER"] },
        memo: "за аккаунт",
        createdAt: expect.any(String),
        releaseAt: "2050-01-03T00:00:00.000Z",
      },
    ]);
    const recipientHolds = await listMemberHolds(t.db, recipient.id);
    expect(recipientHolds).toMatchObject({ outgoing: [], outgoingTotal: 0, incomingTotal: 2 });
    expect(recipientHolds.incoming.map((h) => [h.id, h.counterparty.id])).toEqual([
      [sooner.holdId, sender.id],
      [later.holdId, sender.id],
    ]);
  });

  it("names deal and claim movements of the available balance, without the escrow as a counterparty", async () => {
    const [buyer, seller] = [await funded(20_000), await makeUser(t.db)];
    const escrow = { kind: "escrow" as const, reference: "deal:test-1" };
    await runOperation(t.db, buyer.id, key(), "test.deal", {}, (tx, op) =>
      postTransfers(tx, op.id, [
        { kind: "escrow", from: { kind: "member_available", userId: buyer.id }, to: escrow, amount: 15_000, memo: "Сделка №1" },
        { kind: "payout", from: escrow, to: { kind: "member_available", userId: seller.id }, amount: 9_000, memo: "Сделка №1" },
        { kind: "refund", from: escrow, to: { kind: "member_available", userId: buyer.id }, amount: 5_000, memo: "Сделка №1" },
        { kind: "fee", from: escrow, to: { kind: "platform_fee" }, amount: 1_000, memo: "Сделка №1" },
      ]),
    );
    const buyerLog = await listBalanceLog(t.db, buyer.id, firstPage);
    expect(buyerLog.items.map((e) => [e.type, e.amount, e.balanceAfter, e.counterparty, e.memo])).toEqual([
      ["deal_refund", 5_000, 10_000, null, "Сделка №1"],
      ["deal_funding", -15_000, 5_000, null, "Сделка №1"],
      ["topup", 20_000, 20_000, null, null],
    ]);
    expect((await listBalanceLog(t.db, seller.id, firstPage)).items).toMatchObject([
      { type: "deal_payout", amount: 9_000, counterparty: null, memo: "Сделка №1" },
    ]);
    await expectInvariants();
  });
});
