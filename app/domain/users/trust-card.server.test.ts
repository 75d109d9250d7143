import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makePost, makeUser } from "../../../tests/setup/factories";
import { promoteToAdmin } from "../../../tests/setup/ledger";
import { applyDealAction, createDeal } from "../deals/deals.server";
import { depositFunds } from "../ledger/deposits.server";
import { topUp } from "../ledger/wallet.server";
import { setLike } from "../likes/likes.server";
import { getTrustCard } from "./trust-card.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

describe(`the trust card on ${engine} (docs/product/interface.md#trust-card)`, () => {
  it("a new member's card has ranks and dates and zeros everywhere else", async () => {
    const member = await makeUser(t.db);
    const card = await getTrustCard(t.db, member.id);
    expect(card).toMatchObject({
      id: member.id,
      username: member.username,
      ranks: [],
      deposit: 0,
      dealsCompleted: 0,
      reputation: 0,
      claimsOpen: 0,
      claimsUpheld: 0,
    });
    expect(Date.parse(card.createdAt)).toBe(member.createdAt.getTime());
  });

  it("counts the deposit, completed deals as either party, likes received, and shows the SCAMMER rank", async () => {
    const [admin, seller, buyer, fan] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    await promoteToAdmin(t.db, admin.id);
    await topUp(t.db, admin.id, buyer.id, 200_000, "trust-topup-buyer");
    await topUp(t.db, admin.id, seller.id, 50_000, "trust-topup-seller");
    await depositFunds(t.db, seller.id, 30_000, "trust-deposit");
    const deal = await createDeal(
      t.db,
      buyer.id,
      { counterparty: seller.id, role: "buyer", amount: 100_000, description: "Аккаунт", deadline: new Date(Date.now() + 7 * 86_400_000), feePayer: "buyer" },
      "trust-deal",
    );
    await applyDealAction(t.db, seller.id, deal.id, "accept", {}, "trust-accept");
    await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, "trust-fund");
    await applyDealAction(t.db, seller.id, deal.id, "deliver", {}, "trust-deliver");
    await applyDealAction(t.db, buyer.id, deal.id, "confirm", {}, "trust-confirm");
    const postId = await makePost(t.db, seller);
    await setLike(t.db, fan, "post", postId, true);
    await setLike(t.db, buyer, "post", postId, true);

    expect(await getTrustCard(t.db, seller.id)).toMatchObject({ deposit: 30_000, dealsCompleted: 1, reputation: 2 });
    expect(await getTrustCard(t.db, buyer.id)).toMatchObject({ deposit: 0, dealsCompleted: 1, reputation: 0 });

    await t.db.update(users).set({ scammer: true }).where(eq(users.id, seller.id));
    expect((await getTrustCard(t.db, seller.id)).ranks).toContain("SCAMMER");
  });

  it("an unknown or malformed id is 404 user_not_found", async () => {
    await expect(getTrustCard(t.db, 2_000_000_000)).rejects.toBeInstanceOf(NotFound);
    await expect(getTrustCard(t.db, -1)).rejects.toMatchObject({ code: "user_not_found", status: 404 });
  });
});
