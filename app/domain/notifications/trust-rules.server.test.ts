/**
 * Money and trust notifications (docs/product/notifications.md#money-and-trust, issue 10): each
 * ledger, deal, claim and moderation event notifies the people it concerns once, stored, live on
 * their notifications channel and counted as unread, with the Russian title and the link.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decideClaim, fileClaim } from "~/domain/claims/claims.server";
import { applyDealAction, completeDueDeals, createDeal, type DealAction } from "~/domain/deals/deals.server";
import { formatKopecks } from "~/domain/ledger/money";
import { releaseDueHolds, releaseHold, topUp, transferToMember } from "~/domain/ledger/wallet.server";
import { muteMember } from "~/domain/moderation/sanctions.server";
import { blockMember } from "~/domain/people/blocks.server";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus } from "~/lib/events.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { inboxOf, listenNotifications } from "../../../tests/setup/domain";
import { makeMember } from "../../../tests/setup/moderation";
import { countUnreadNotifications } from "./notifications.server";
import { registerNotificationRules } from "./subscribers.server";
import type { NotificationDto } from "./types";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let keys = 0;
const key = () => `trust-${++keys}`;

beforeAll(async () => {
  t = await createTestDatabase();
  registerNotificationRules(t.db);
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await t.destroy();
});

/** Runs `action`, waits for the subscribers, and returns `user`'s stored notifications of `type`. */
async function after(action: () => Promise<unknown>, user: UserRow, type: NotificationDto["type"]): Promise<NotificationDto[]> {
  await action();
  await eventBus(t.db).drain();
  return (await inboxOf(t.db, user)).filter((n) => n.type === type);
}

async function funded(): Promise<{ buyer: UserRow; seller: UserRow; dealId: number }> {
  const [buyer, seller] = [await makeMember(t.db), await makeMember(t.db)];
  await topUp(t.db, admin.id, buyer.id, 500_000, key());
  const deal = await createDeal(
    t.db,
    seller.id,
    { counterparty: buyer.id, role: "seller", amount: 100_000, description: "Аккаунт", deadline: new Date(Date.now() + 5 * 86_400_000), feePayer: "buyer" },
    key(),
  );
  await applyDealAction(t.db, buyer.id, deal.id, "accept", {}, key());
  await applyDealAction(t.db, buyer.id, deal.id, "fund", {}, key());
  await eventBus(t.db).drain();
  return { buyer, seller, dealId: deal.id };
}

describe(`money notifications on ${engine}`, () => {
  it("tells the recipient of a transfer, live and unread, once however often the request is retried", async () => {
    const [sender, recipient] = [await makeMember(t.db), await makeMember(t.db)];
    await topUp(t.db, admin.id, sender.id, 100_000, key());
    const live = listenNotifications(t.db, recipient);
    const unreadBefore = await countUnreadNotifications(t.db, recipient.id);
    const retried = key();
    const [received] = await after(() => transferToMember(t.db, sender.id, recipient.username, 15_000, {}, retried), recipient, "TRANSFER_RECEIVED");
    expect(received).toMatchObject({
      title: `${sender.username} перевёл(а) вам ${formatKopecks(15_000)}`,
      description: "Нажмите, чтобы посмотреть",
      url: "/profile/wallet",
      amount: 15_000,
      senderId: sender.id,
      read: false,
    });
    // The live frame crosses PostgreSQL's LISTEN/NOTIFY after the commit, so it may land after the drain.
    await vi.waitFor(() => expect(live.map((n) => n.id)).toEqual([received!.id]));
    expect(await countUnreadNotifications(t.db, recipient.id)).toBe(unreadBefore + 1);
    expect(await after(() => transferToMember(t.db, sender.id, recipient.username, 15_000, {}, retried), recipient, "TRANSFER_RECEIVED")).toHaveLength(1);
  });

  it("tells the recipient when a held transfer is released, early or on time, even from a member they blocked", async () => {
    const [sender, recipient] = [await makeMember(t.db), await makeMember(t.db)];
    await blockMember(t.db, recipient, sender.id);
    await topUp(t.db, admin.id, sender.id, 100_000, key());
    const early = await transferToMember(t.db, sender.id, recipient.id, 7_000, { holdHours: 48 }, key());
    const onTime = await transferToMember(t.db, sender.id, recipient.id, 3_000, { holdHours: 1 }, key());
    expect(await after(() => releaseHold(t.db, sender.id, early.holdId!, key()), recipient, "HOLD_RELEASED")).toEqual([
      expect.objectContaining({
        title: `${sender.username} — удержание снято: ${formatKopecks(7_000)} зачислены на ваш баланс`,
        url: "/profile/wallet",
        amount: 7_000,
      }),
    ]);
    const released = await after(() => releaseDueHolds(t.db, new Date(Date.now() + 2 * 3_600_000)), recipient, "HOLD_RELEASED");
    expect(released.map((n) => n.amount).sort()).toEqual([3_000, 7_000]);
    expect(onTime.holdId).not.toBeNull();
    expect((await inboxOf(t.db, recipient)).filter((n) => n.type === "TRANSFER_RECEIVED")).toHaveLength(2);
  });
});

describe(`deal notifications on ${engine}`, () => {
  it("walks a deal: offered, accepted, funded, delivered, completed — each to the other party, linking to the deal", async () => {
    const [buyer, seller] = [await makeMember(t.db), await makeMember(t.db)];
    await topUp(t.db, admin.id, buyer.id, 500_000, key());
    const deal = await createDeal(
      t.db,
      seller.id,
      { counterparty: buyer.id, role: "seller", amount: 100_000, description: "Ключ", deadline: new Date(Date.now() + 5 * 86_400_000), feePayer: "split" },
      key(),
    );
    const step = (who: UserRow, action: DealAction) => () => applyDealAction(t.db, who.id, deal.id, action, {}, key());
    const url = `/services/guarantor/deals/${deal.id}`;
    await eventBus(t.db).drain();
    expect((await inboxOf(t.db, buyer)).find((n) => n.type === "DEAL_OFFERED")).toMatchObject({
      title: `${seller.username} предложил(а) вам сделку №${deal.id}`,
      url,
      dealId: deal.id,
    });
    expect((await after(step(buyer, "accept"), seller, "DEAL_ACCEPTED"))[0]).toMatchObject({ title: `${buyer.username} принял(а) сделку №${deal.id}`, url });
    expect((await after(step(buyer, "fund"), seller, "DEAL_FUNDED"))[0]!.title).toBe(`${buyer.username} оплатил(а) сделку №${deal.id}: деньги у гаранта`);
    expect((await after(step(seller, "deliver"), buyer, "DEAL_DELIVERED"))[0]!.title).toBe(
      `${seller.username} отметил(а) сделку №${deal.id} выполненной — подтвердите получение`,
    );
    expect((await after(step(buyer, "confirm"), seller, "DEAL_COMPLETED"))[0]!.title).toBe(`${buyer.username} — сделка №${deal.id} завершена`);
    // Nobody hears of their own step.
    expect((await inboxOf(t.db, seller)).filter((n) => n.type === "DEAL_OFFERED" || n.type === "DEAL_DELIVERED")).toEqual([]);
  });

  it("tells of a cancellation, a dispute, a moderator's resolution and an automatic completion", async () => {
    const [a, b] = [await makeMember(t.db), await makeMember(t.db)];
    const proposal = await createDeal(
      t.db,
      a.id,
      { counterparty: b.id, role: "buyer", amount: 10_000, description: "Услуга", deadline: new Date(Date.now() + 86_400_000), feePayer: "buyer" },
      key(),
    );
    expect((await after(() => applyDealAction(t.db, b.id, proposal.id, "cancel", {}, key()), a, "DEAL_CANCELLED"))[0]!.title).toBe(
      `${b.username} — сделка №${proposal.id} отменена`,
    );

    const disputed = await funded();
    expect(
      (
        await after(
          () => applyDealAction(t.db, disputed.buyer.id, disputed.dealId, "dispute", { reason: "Не получил" }, key()),
          disputed.seller,
          "DEAL_DISPUTED",
        )
      )[0]!.title,
    ).toBe(`${disputed.buyer.username} открыл(а) спор по сделке №${disputed.dealId}`);
    await applyDealAction(t.db, moderator.id, disputed.dealId, "resolve", { resolution: "refund", note: "Товар не передан" }, key());
    await eventBus(t.db).drain();
    for (const party of [disputed.buyer, disputed.seller]) {
      expect((await inboxOf(t.db, party)).find((n) => n.type === "DEAL_RESOLVED")).toMatchObject({
        title: `${moderator.username} вынес(ла) решение по спору в сделке №${disputed.dealId}`,
        senderId: moderator.id,
      });
    }

    const automatic = await funded();
    await applyDealAction(t.db, automatic.seller.id, automatic.dealId, "deliver", {}, key());
    await completeDueDeals(t.db, new Date(Date.now() + 80 * 3_600_000));
    await eventBus(t.db).drain();
    expect((await inboxOf(t.db, automatic.buyer)).find((n) => n.type === "DEAL_COMPLETED")?.senderId).toBe(automatic.seller.id);
    expect((await inboxOf(t.db, automatic.seller)).find((n) => n.type === "DEAL_COMPLETED")?.senderId).toBe(automatic.buyer.id);
  });
});

describe(`claim and moderation notifications on ${engine}`, () => {
  it("tells the accused of a claim and both parties of the decision", async () => {
    const [claimant, accused] = [await makeMember(t.db), await makeMember(t.db)];
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.username, amount: 30_000, description: "Взял деньги и пропал", evidence: [] }, key());
    await eventBus(t.db).drain();
    expect((await inboxOf(t.db, accused)).find((n) => n.type === "CLAIM_FILED")).toMatchObject({
      title: `${claimant.username} подал(а) на вас претензию №${claim.id}`,
      url: `/claims/${claim.id}`,
      claimId: claim.id,
    });
    await decideClaim(t.db, moderator.id, claim.id, { decision: "reject", note: "Доказательств нет" }, key());
    await eventBus(t.db).drain();
    for (const party of [claimant, accused]) {
      expect((await inboxOf(t.db, party)).find((n) => n.type === "CLAIM_DECIDED")).toMatchObject({
        title: `${moderator.username} вынес(ла) решение по претензии №${claim.id}`,
        url: `/claims/${claim.id}`,
      });
    }
  });

  it("tells a member of a sanction applied to them", async () => {
    const member = await makeMember(t.db);
    const [applied] = await after(() => muteMember(t.db, moderator.id, member.id, { reason: "Флуд", endsAt: null }), member, "SANCTION_APPLIED");
    expect(applied).toMatchObject({ title: `${moderator.username} ограничил(а) вашу учётную запись`, url: "/profile", read: false });
  });
});
