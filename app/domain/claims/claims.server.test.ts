import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claims, deals, ledgerTransfers } from "~/db/schema";
import type { DomainEvent } from "~/lib/events.server";
import { eventBus } from "~/lib/events.server";
import { getProfile, type UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin, promoteToModerator } from "../../../tests/setup/ledger";
import { postTransfers } from "../ledger/ledger.server";
import { runOperation } from "../ledger/operations.server";
import { topUp } from "../ledger/wallet.server";
import { getBalances } from "../ledger/balances.server";
import { countOpenClaimsAgainst, decideClaim, fileClaim, getClaim, listBlacklist, listClaimsAgainst, listClaimsFiledBy, listOpenClaims } from "./claims.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let keyCounter = 0;
const key = () => `claim-key-${++keyCounter}`;
const firstPage = { page: 1, perPage: 10 };
const description = "Продавец получил оплату и пропал, аккаунт так и не передал.";

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeUser(t.db);
  await promoteToAdmin(t.db, admin.id);
  moderator = await makeUser(t.db);
  await promoteToModerator(t.db, moderator.id);
});
afterAll(async () => {
  await t.destroy();
});

/** A member with `deposit` kopecks locked as their deposit (topped up, then moved available → deposit). */
async function memberWithDeposit(deposit: number): Promise<UserRow> {
  const member = await makeUser(t.db);
  if (deposit > 0) {
    await topUp(t.db, admin.id, member.id, deposit, key());
    await runOperation(t.db, member.id, key(), "test.deposit", { amount: deposit }, (tx, op) =>
      postTransfers(tx, op.id, [
        { kind: "deposit", from: { kind: "member_available", userId: member.id }, to: { kind: "member_deposit", userId: member.id }, amount: deposit },
      ]),
    );
  }
  return member;
}

async function claimCount(): Promise<number> {
  return (await t.db.select({ id: claims.id }).from(claims)).length;
}

async function isScammer(userId: number): Promise<boolean> {
  return (await getProfile(t.db, userId)).ranks.includes("SCAMMER");
}

async function expectInvariants() {
  expect(await ledgerSnapshot(t.db)).toMatchObject({ totalBalance: 0, negativeAccounts: 0, driftedAccounts: [] });
}

describe(`filing a claim on ${engine}`, () => {
  it("a member files against another by «@Username» in any case; both see it, the accused has one open claim", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const claim = await fileClaim(
      t.db,
      claimant.id,
      {
        accused: `@${accused.username.toUpperCase()}`,
        amount: 150_050,
        description: `  ${description}  `,
        evidence: ["https://example.com/chat.png", "http://imgur.example/a"],
      },
      key(),
    );
    expect(claim).toMatchObject({
      status: "open",
      claimant: { id: claimant.id, username: claimant.username },
      accused: { id: accused.id, username: accused.username, ranks: [] },
      amount: 150_050,
      description,
      evidence: ["https://example.com/chat.png", "http://imgur.example/a"],
      dealId: null,
      decidedAt: null,
      decisionNote: null,
      compensation: null,
    });
    expect(await countOpenClaimsAgainst(t.db, accused.id)).toBe(1);
    expect((await getClaim(t.db, accused.id, claim.id)).id).toBe(claim.id);
    expect((await listClaimsFiledBy(t.db, claimant.id, firstPage)).items.map((c) => c.id)).toEqual([claim.id]);
    expect((await listClaimsAgainst(t.db, accused.id, firstPage)).items.map((c) => c.id)).toEqual([claim.id]);
    expect((await listOpenClaims(t.db, moderator.id, firstPage)).items.map((c) => c.id)).toContain(claim.id);
  });

  it("refuses bad input with a stable code and a Russian message, saving nothing", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const stranger = await makeUser(t.db);
    const base = { accused: accused.id, amount: 10_000, description, evidence: [] as string[] };
    const before = await claimCount();
    const refusals: [object, number, string, string?][] = [
      [{ accused: claimant.username }, 400, "claim_against_self", "Нельзя подать претензию на самого себя"],
      [{ accused: "nobody_here_at_all" }, 404, "accused_not_found"],
      [{ accused: 2_147_483_647 }, 404, "accused_not_found"],
      [{ amount: 0 }, 400, "invalid_input", "Сумма — от 0,01 до 10 000 000 ₽"],
      [{ amount: 1_000_000_001 }, 400, "invalid_input", "Сумма — от 0,01 до 10 000 000 ₽"],
      [{ amount: 1.5 }, 400, "invalid_input"],
      [{ description: "коротко" }, 400, "invalid_input", "Описание — не короче 10 символов"],
      [{ description: "x".repeat(5001) }, 400, "invalid_input"],
      [{ evidence: ["javascript:alert(1)"] }, 400, "invalid_input", "Доказательства — ссылки, начинающиеся с http:// или https://"],
      [{ evidence: [`https://example.com/${"a".repeat(490)}`] }, 400, "invalid_input", "Ссылка — не длиннее 500 символов"],
      [{ evidence: Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`) }, 400, "invalid_input", "Не больше 10 ссылок"],
      [{ dealId: 2_147_483_647 }, 400, "deal_not_between_parties"],
      [{ dealId: 2_147_483_648 }, 400, "invalid_input", "Номер сделки — целое число"],
      [{ dealId: 1e20 }, 400, "invalid_input"],
      [{ dealId: 0 }, 400, "invalid_input"],
      [{ accused: "bad\u0000name" }, 400, "invalid_text", "Текст содержит недопустимые символы"],
      [{ description: `${description}\u0000` }, 400, "invalid_text"],
      [{ description: `${description}\ud800` }, 400, "invalid_text"],
      [{ evidence: ["https://example.com/a\u0000b"] }, 400, "invalid_text"],
      [{ evidence: ["https://example.com/\udc00"] }, 400, "invalid_text"],
    ];
    for (const [change, status, code, message] of refusals) {
      const attempt = fileClaim(t.db, claimant.id, { ...base, ...change }, key());
      await expect(attempt, JSON.stringify(change)).rejects.toMatchObject({ status, code, ...(message ? { message } : {}) });
    }
    // A real deal, but between the claimant and someone else.
    const [other] = await t.db
      .insert(deals)
      .values({
        buyerId: claimant.id,
        sellerId: stranger.id,
        createdBy: claimant.id,
        amount: 10_000,
        fee: 5_000,
        feePayer: "buyer",
        buyerFee: 5_000,
        sellerFee: 0,
        description: "Сделка",
        deadline: new Date(),
      })
      .returning({ id: deals.id });
    await expect(fileClaim(t.db, claimant.id, { ...base, dealId: other!.id }, key())).rejects.toMatchObject({ status: 400, code: "deal_not_between_parties" });
    expect(await claimCount()).toBe(before);
  });

  it("references a deal between the two; a second open claim against the same member is a conflict", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const [deal] = await t.db
      .insert(deals)
      .values({
        buyerId: claimant.id,
        sellerId: accused.id,
        createdBy: accused.id,
        amount: 20_000,
        fee: 5_000,
        feePayer: "seller",
        buyerFee: 0,
        sellerFee: 5_000,
        description: "Аккаунт",
        deadline: new Date(),
      })
      .returning({ id: deals.id });
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.username, amount: 20_000, description, evidence: [], dealId: deal!.id }, key());
    expect(claim.dealId).toBe(deal!.id);
    await expect(fileClaim(t.db, claimant.id, { accused: accused.id, amount: 5_000, description, evidence: [] }, key())).rejects.toMatchObject({
      status: 409,
      code: "claim_already_open",
    });
    // Someone else may still file against the same member, and the claimant may file again once it is decided.
    const other = await makeUser(t.db);
    await fileClaim(t.db, other.id, { accused: accused.id, amount: 5_000, description, evidence: [] }, key());
    expect(await countOpenClaimsAgainst(t.db, accused.id)).toBe(2);
    await decideClaim(t.db, moderator.id, claim.id, { decision: "reject", note: "Доказательств нет" }, key());
    const again = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 5_000, description, evidence: [] }, key());
    expect(again.status).toBe("open");
  });

  it("a retried filing with the same key answers the same claim; the key cannot be reused for another claim", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const input = { accused: accused.username, amount: 10_000, description, evidence: ["https://example.com/chat.png"] };
    const [first, second] = await Promise.all([fileClaim(t.db, claimant.id, input, "file-once"), fileClaim(t.db, claimant.id, input, "file-once")]);
    expect(second).toEqual(first);
    // The same claim named another way (by id, «@») is the same request.
    expect(await fileClaim(t.db, claimant.id, { ...input, accused: accused.id }, "file-once")).toEqual(first);
    expect(await countOpenClaimsAgainst(t.db, accused.id)).toBe(1);
    await expect(fileClaim(t.db, claimant.id, { ...input, amount: 20_000 }, "file-once")).rejects.toMatchObject({
      status: 409,
      code: "idempotency_key_reused",
    });
    await expect(fileClaim(t.db, claimant.id, input, "not a key")).rejects.toMatchObject({ status: 400, code: "invalid_idempotency_key" });
    expect((await listClaimsFiledBy(t.db, claimant.id, firstPage)).total).toBe(1);
  });

  it("two concurrent filings for the same pair: exactly one is accepted", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => fileClaim(t.db, claimant.id, { accused: accused.id, amount: 10_000, description, evidence: [] }, key())),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409, code: "claim_already_open" });
    expect(await countOpenClaimsAgainst(t.db, accused.id)).toBe(1);
  });
});

describe(`who sees a claim on ${engine}`, () => {
  it("open and rejected claims: the parties and moderators; upheld claims: everyone", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const stranger = await makeUser(t.db);
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 10_000, description, evidence: [] }, key());
    for (const viewer of [claimant.id, accused.id, moderator.id, admin.id]) expect((await getClaim(t.db, viewer, claim.id)).id).toBe(claim.id);
    for (const viewer of [stranger.id, null]) await expect(getClaim(t.db, viewer, claim.id)).rejects.toMatchObject({ status: 404, code: "claim_not_found" });
    await expect(getClaim(t.db, claimant.id, 2_147_483_647)).rejects.toMatchObject({ status: 404, code: "claim_not_found" });
    await decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Обман подтверждён перепиской" }, key());
    for (const viewer of [stranger.id, null]) expect((await getClaim(t.db, viewer, claim.id)).status).toBe("upheld");
  });

  it("only moderators see the queue of open claims", async () => {
    const member = await makeUser(t.db);
    await expect(listOpenClaims(t.db, member.id, firstPage)).rejects.toMatchObject({ status: 403, code: "not_moderator" });
    expect((await listOpenClaims(t.db, admin.id, firstPage)).items.every((c) => c.status === "open")).toBe(true);
  });
});

describe(`deciding a claim on ${engine}`, () => {
  it("only a moderator who is not a party decides; a note is required; nothing changes on refusal", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const stranger = await makeUser(t.db);
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 10_000, description, evidence: [] }, key());
    const uphold = { decision: "uphold" as const, note: "Обман" };
    await expect(decideClaim(t.db, stranger.id, claim.id, uphold, key())).rejects.toMatchObject({ status: 404, code: "claim_not_found" });
    await expect(decideClaim(t.db, claimant.id, claim.id, uphold, key())).rejects.toMatchObject({ status: 403, code: "not_moderator" });
    await expect(decideClaim(t.db, accused.id, claim.id, uphold, key())).rejects.toMatchObject({ status: 403, code: "not_moderator" });
    await expect(decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "   " }, key())).rejects.toMatchObject({
      status: 400,
      code: "invalid_input",
      message: "Напишите причину решения",
    });
    await expect(decideClaim(t.db, moderator.id, claim.id, { decision: "reject", note: "Нет", compensation: 100 }, key())).rejects.toMatchObject({
      status: 400,
      code: "compensation_on_reject",
    });
    await expect(decideClaim(t.db, moderator.id, 2_147_483_647, uphold, key())).rejects.toMatchObject({ status: 404, code: "claim_not_found" });
    for (const note of ["Обман\u0000", "Обман \ud800"]) {
      await expect(decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note }, key())).rejects.toMatchObject({ status: 400, code: "invalid_text" });
    }
    // A moderator accused by a member cannot decide their own case.
    const against = await fileClaim(t.db, claimant.id, { accused: moderator.id, amount: 10_000, description, evidence: [] }, key());
    const before = await ledgerSnapshot(t.db);
    await expect(decideClaim(t.db, moderator.id, against.id, { decision: "reject", note: "Не виноват" }, key())).rejects.toMatchObject({
      status: 403,
      code: "party_cannot_decide",
    });
    expect((await ledgerSnapshot(t.db)).operations).toBe(before.operations);
    expect((await getClaim(t.db, claimant.id, claim.id)).status).toBe("open");
    expect((await getClaim(t.db, claimant.id, against.id)).status).toBe("open");
    expect(await isScammer(accused.id)).toBe(false);
  });

  it("reject closes the claim with the note; the accused stays clean and off the blacklist", async () => {
    const claimant = await makeUser(t.db);
    const accused = await makeUser(t.db);
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 10_000, description, evidence: [] }, key());
    const decided = await decideClaim(t.db, moderator.id, claim.id, { decision: "reject", note: "  Доказательства не подтверждают обман  " }, key());
    expect(decided).toMatchObject({
      status: "rejected",
      decisionNote: "Доказательства не подтверждают обман",
      decidedBy: { id: moderator.id },
      compensation: null,
    });
    expect(decided.decidedAt).toEqual(expect.any(String));
    expect(await isScammer(accused.id)).toBe(false);
    expect(await countOpenClaimsAgainst(t.db, accused.id)).toBe(0);
    expect((await listBlacklist(t.db, { page: 1, perPage: 50 })).items.some((e) => e.claimId === claim.id)).toBe(false);
    await expect(decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Передумал" }, key())).rejects.toMatchObject({
      status: 409,
      code: "claim_already_decided",
    });
  });

  it("uphold with compensation: the exact amount moves deposit → claimant, SCAMMER rank, blacklist entry, events", async () => {
    const claimant = await makeUser(t.db);
    const accused = await memberWithDeposit(500_000);
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 300_000, description, evidence: [] }, key());
    const events: DomainEvent[] = [];
    const stop = [
      eventBus(t.db).subscribe("claim.upheld", (e) => void events.push(e)),
      eventBus(t.db).subscribe("deposit.changed", (e) => void events.push(e)),
    ];
    const decided = await decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Не передал аккаунт", compensation: 123_456 }, key());
    await eventBus(t.db).drain();
    stop.forEach((unsubscribe) => unsubscribe());
    expect(decided).toMatchObject({ status: "upheld", decisionNote: "Не передал аккаунт", compensation: 123_456, accused: { ranks: ["SCAMMER"] } });
    expect(await getBalances(t.db, accused.id)).toEqual({ available: 0, held: 0, deposit: 500_000 - 123_456 });
    expect(await getBalances(t.db, claimant.id)).toEqual({ available: 123_456, held: 0, deposit: 0 });
    const [row] = await t.db.select().from(claims).where(eq(claims.id, claim.id));
    const [transfer] = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, row!.compensationTransferId!));
    expect(transfer).toMatchObject({
      kind: "compensation",
      amount: 123_456,
      memo: `Претензия №${claim.id}`,
      debitBalanceAfter: 376_544,
      creditBalanceAfter: 123_456,
    });
    expect(await isScammer(accused.id)).toBe(true);
    expect(events).toEqual([
      { type: "claim.upheld", claimId: claim.id, accusedId: accused.id, claimantId: claimant.id },
      { type: "deposit.changed", userId: accused.id, deposit: 376_544 },
    ]);
    const blacklist = await listBlacklist(t.db, firstPage);
    expect(blacklist.items[0]).toEqual({
      claimId: claim.id,
      accused: { id: accused.id, username: accused.username, displayName: null, image: null, ranks: ["SCAMMER"] },
      reason: "Не передал аккаунт",
      amount: 300_000,
      compensation: 123_456,
      date: decided.decidedAt,
    });
    await expectInvariants();
  });

  it("compensation above the deposit or the claim is refused and changes nothing", async () => {
    const claimant = await makeUser(t.db);
    const accused = await memberWithDeposit(10_000);
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 50_000, description, evidence: [] }, key());
    const before = await ledgerSnapshot(t.db);
    await expect(decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Обман", compensation: 10_001 }, key())).rejects.toMatchObject({
      status: 422,
      code: "insufficient_deposit",
      message: "Компенсация больше депозита участника: на депозите 100,00\u00a0₽, а назначено 100,01\u00a0₽",
    });
    await expect(decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Обман", compensation: 50_001 }, key())).rejects.toMatchObject({
      status: 400,
      code: "compensation_above_claim",
    });
    expect(await ledgerSnapshot(t.db)).toEqual(before);
    expect((await getClaim(t.db, claimant.id, claim.id)).status).toBe("open");
    expect(await isScammer(accused.id)).toBe(false);
    expect(await getBalances(t.db, accused.id)).toMatchObject({ deposit: 10_000 });
    // The whole deposit may be taken.
    await decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: "Обман", compensation: 10_000 }, key());
    expect(await getBalances(t.db, accused.id)).toMatchObject({ deposit: 0 });
    expect(await getBalances(t.db, claimant.id)).toMatchObject({ available: 10_000 });
    await expectInvariants();
  });

  it("a retried decision replays: one transfer, one set of events; the key cannot be reused for another request", async () => {
    const claimant = await makeUser(t.db);
    const accused = await memberWithDeposit(40_000);
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 40_000, description, evidence: [] }, key());
    let upheldEvents = 0;
    const stop = eventBus(t.db).subscribe("claim.upheld", () => void (upheldEvents += 1));
    const input = { decision: "uphold" as const, note: "Обман", compensation: 25_000 };
    const retryKey = key();
    const results = await Promise.all([1, 2, 3].map(() => decideClaim(t.db, moderator.id, claim.id, input, retryKey)));
    const again = await decideClaim(t.db, moderator.id, claim.id, input, retryKey);
    await eventBus(t.db).drain();
    stop();
    for (const result of [...results, again]) expect(result).toEqual(results[0]);
    expect(upheldEvents).toBe(1);
    expect(await getBalances(t.db, claimant.id)).toMatchObject({ available: 25_000 });
    expect(await getBalances(t.db, accused.id)).toMatchObject({ deposit: 15_000 });
    const compensations = await t.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.memo, `Претензия №${claim.id}`));
    expect(compensations).toHaveLength(1);
    await expect(decideClaim(t.db, moderator.id, claim.id, { ...input, compensation: 1 }, retryKey)).rejects.toMatchObject({
      status: 409,
      code: "idempotency_key_reused",
    });
    await expect(decideClaim(t.db, moderator.id, claim.id, input, key())).rejects.toMatchObject({ status: 409, code: "claim_already_decided" });
    await expectInvariants();
  });

  it("the blacklist pages newest first", async () => {
    const accused = await makeUser(t.db);
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const claimant = await makeUser(t.db);
      const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 1_000 * (i + 1), description, evidence: [] }, key());
      await decideClaim(t.db, moderator.id, claim.id, { decision: "uphold", note: `Причина ${i}` }, key());
      ids.push(claim.id);
    }
    const first = await listBlacklist(t.db, { page: 1, perPage: 2 });
    const second = await listBlacklist(t.db, { page: 2, perPage: 2 });
    expect(first.items.map((e) => e.claimId)).toEqual([ids[2], ids[1]]);
    expect(second.items[0]!.claimId).toBe(ids[0]);
    expect(first.total).toBe(second.total);
    expect(first.totalPages).toBe(Math.ceil(first.total / 2));
  });
});
