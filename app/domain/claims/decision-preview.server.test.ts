/**
 * The confirmation step of upholding a claim with compensation (docs/product/interface.md#money-confirmations,
 * docs/product/claims.md#compensation): previewClaimDecision names the claimant, the compensation
 * and the deposit after, refuses what decideClaim refuses, and moves and decides nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claims } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { ledgerSnapshot, promoteToAdmin, promoteToModerator } from "../../../tests/setup/ledger";
import { depositFunds } from "../ledger/deposits.server";
import { topUp } from "../ledger/wallet.server";
import { decideClaim, fileClaim } from "./claims.server";
import { previewClaimDecision } from "./decision-preview.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let counter = 0;
const key = () => `claim-preview-key-${++counter}`;
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

/** An open claim of 30 000 kopecks against a member with a 20 000 deposit. */
async function openClaim() {
  const [claimant, accused] = [await makeUser(t.db), await makeUser(t.db)];
  await topUp(t.db, admin.id, accused.id, 20_000, key());
  await depositFunds(t.db, accused.id, 20_000, key());
  const claim = await fileClaim(t.db, claimant.id, { accused: accused.username, amount: 30_000, description, evidence: [] }, key());
  return { claimant, accused, claim };
}

describe(`claim decision previews on ${engine}`, () => {
  it("upholding with compensation: the claimant, the compensation, the deposit after; nothing moves or is decided", async () => {
    const { claimant, accused, claim } = await openClaim();
    const before = await ledgerSnapshot(t.db);
    expect(await previewClaimDecision(t.db, moderator.id, claim.id, { decision: "uphold", note: "Доказано", compensation: 15_000 })).toEqual({
      claimId: claim.id,
      amount: 30_000,
      claimant: { id: claimant.id, username: claimant.username },
      accused: { id: accused.id, username: accused.username },
      note: "Доказано",
      compensation: 15_000,
      depositBefore: 20_000,
      depositAfter: 5_000,
      claimantBalanceAfter: 15_000,
    });
    expect(await ledgerSnapshot(t.db)).toEqual(before);
    const [row] = await t.db.select({ status: claims.status }).from(claims).where(eq(claims.id, claim.id));
    expect(row!.status).toBe("open");
  });

  it("refuses what decideClaim refuses: above the deposit, above the claim, on reject, a party, a member, a decided claim", async () => {
    const { claimant, claim } = await openClaim();
    const uphold = (compensation: number) => ({ decision: "uphold" as const, note: "Доказано", compensation });
    await expect(previewClaimDecision(t.db, moderator.id, claim.id, uphold(20_001))).rejects.toMatchObject({ status: 422, code: "insufficient_deposit" });
    await expect(previewClaimDecision(t.db, moderator.id, claim.id, uphold(30_001))).rejects.toMatchObject({ status: 400, code: "compensation_above_claim" });
    await expect(previewClaimDecision(t.db, moderator.id, claim.id, { decision: "reject", note: "Нет", compensation: 100 })).rejects.toMatchObject({
      code: "compensation_on_reject",
    });
    await expect(previewClaimDecision(t.db, claimant.id, claim.id, uphold(100))).rejects.toMatchObject({ status: 403, code: "not_moderator" });
    await decideClaim(t.db, moderator.id, claim.id, { decision: "reject", note: "Нет доказательств" }, key());
    await expect(previewClaimDecision(t.db, moderator.id, claim.id, uphold(100))).rejects.toMatchObject({ status: 409, code: "claim_already_decided" });
    await expect(previewClaimDecision(t.db, moderator.id, 2_147_483_647, uphold(100))).rejects.toMatchObject({ status: 404, code: "claim_not_found" });
  });
});
