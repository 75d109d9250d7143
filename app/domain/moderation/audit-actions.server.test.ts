/**
 * The audit log records every moderator and admin action (docs/product/moderation.md#audit-log),
 * beyond roles, sanctions, content and settings: claim decisions, dispute resolutions, money
 * top-ups, ad reviews, music and FAQ edits. Each test reads the log as a moderator sees it on
 * /admin/log (listAuditLog): who, what, on what (with its link), whom it concerns, why; and
 * checks that a refused action leaves no entry.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adSlots } from "~/db/schema";
import { approveAd, rejectAd, requestAd } from "~/domain/ads/ads.server";
import { decideClaim, fileClaim } from "~/domain/claims/claims.server";
import { applyDealAction, createDeal, resolutionAgainst } from "~/domain/deals/deals.server";
import { createFaqEntry, deleteFaqEntry, moveFaqEntry, setFaqEntryPublished, updateFaqEntry } from "~/domain/faq/entries.server";
import { createFaqSection, deleteFaqSection, moveFaqSection, renameFaqSection } from "~/domain/faq/sections.server";
import { topUp } from "~/domain/ledger/wallet.server";
import { deleteTrack, moveTrack, updateTrack, uploadTrack } from "~/domain/music/tracks.server";
import type { UserRow } from "~/domain/users/users.server";
import { eventBus } from "~/lib/events.server";
import { getStorage } from "~/lib/storage/storage.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/moderation";
import { listAuditLog } from "./audit.server";
import { getMemberAdminView } from "./members.server";
import { AuditLogQuerySchema } from "./schemas";
import type { AuditAction, AuditEntryDto } from "./types";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;
let keys = 0;
const key = () => `audit-actions-${++keys}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "audit-actions-test-"));
const storage = getStorage({ dataDir });
const demoTrack = () => readFileSync(path.resolve("app/db/seed/music", "garant-spit-spokojno.mp3"));

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await eventBus(t.db).drain();
  await t?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The /admin/log entries with `action`, newest first, as a moderator reads them. */
async function logged(action: AuditAction): Promise<AuditEntryDto[]> {
  return (await listAuditLog(t.db, moderator.id, { action }, { page: 1, perPage: 50 })).items;
}

/** The whole log's size: a refused action must not change it. */
async function logSize(): Promise<number> {
  return (await listAuditLog(t.db, moderator.id, {}, { page: 1, perPage: 1 })).total;
}

async function funded(kopecks: number): Promise<UserRow> {
  const member = await makeMember(t.db);
  await topUp(t.db, admin.id, member.id, kopecks, key());
  return member;
}

describe(`audit log of money, trust and admin pages on ${engine}`, () => {
  it("an admin's top-up is logged with the member and the sum; a retry, a moderator's attempt and a bad amount add nothing", async () => {
    const member = await makeMember(t.db);
    const topUpKey = key();
    await topUp(t.db, admin.id, member.id, 150_000, topUpKey);
    const [entry] = await logged("money.topup");
    expect(entry).toMatchObject({
      actor: { id: admin.id, username: admin.username },
      actionLabel: "Пополнил баланс",
      target: { type: "user", id: member.id, url: `/admin/members/${member.id}` },
      targetUser: { id: member.id, username: member.username },
      details: { amount: 150_000 },
    });

    const size = await logSize();
    await topUp(t.db, admin.id, member.id, 150_000, topUpKey);
    await expect(topUp(t.db, moderator.id, member.id, 150_000, key())).rejects.toMatchObject({ code: "not_admin" });
    await expect(topUp(t.db, admin.id, member.id, 0, key())).rejects.toMatchObject({ code: "invalid_amount" });
    expect(await logSize()).toBe(size);
  });

  it("a moderator's claim decision is logged against the accused with the note; deciding it again adds nothing", async () => {
    const [claimant, accused] = [await makeMember(t.db), await makeMember(t.db)];
    const description = "Продавец получил оплату и пропал, аккаунт так и не передал.";
    const upheld = await fileClaim(t.db, claimant.id, { accused: accused.username, amount: 50_000, description }, key());
    await decideClaim(t.db, moderator.id, upheld.id, { decision: "uphold", note: "Обман подтверждён перепиской" }, key());
    const rejected = await fileClaim(t.db, accused.id, { accused: claimant.username, amount: 10_000, description }, key());
    await decideClaim(t.db, moderator.id, rejected.id, { decision: "reject", note: "Доказательств нет" }, key());

    expect((await logged("claim.uphold"))[0]).toMatchObject({
      actor: { id: moderator.id },
      actionLabel: "Удовлетворил претензию",
      target: { type: "claim", id: upheld.id, url: `/claims/${upheld.id}` },
      targetUser: { id: accused.id },
      reason: "Обман подтверждён перепиской",
      details: { claimantId: claimant.id, amount: 50_000, compensation: null },
    });
    expect((await logged("claim.reject"))[0]).toMatchObject({
      actor: { id: moderator.id },
      actionLabel: "Отклонил претензию",
      target: { type: "claim", id: rejected.id, url: `/claims/${rejected.id}` },
      targetUser: { id: claimant.id },
      reason: "Доказательств нет",
    });

    const size = await logSize();
    await expect(decideClaim(t.db, moderator.id, upheld.id, { decision: "reject", note: "Передумал" }, key())).rejects.toMatchObject({
      code: "claim_already_decided",
    });
    // Compensation above the accused's (empty) deposit fails inside the transaction.
    const third = await fileClaim(t.db, claimant.id, { accused: (await makeMember(t.db)).username, amount: 10_000, description }, key());
    await expect(decideClaim(t.db, moderator.id, third.id, { decision: "uphold", note: "Виноват", compensation: 5_000 }, key())).rejects.toMatchObject({
      code: "insufficient_deposit",
    });
    expect(await logSize()).toBe(size);
  });

  it("a decision note longer than the log keeps is cut to 1000 characters with «…», the claim keeps it whole", async () => {
    const [claimant, accused] = [await makeMember(t.db), await makeMember(t.db)];
    const claim = await fileClaim(t.db, claimant.id, { accused: accused.id, amount: 1_000, description: "Не вернул долг за аккаунт." }, key());
    const note = `Переписка не подтверждает обман. ${"Подробности разбора. ".repeat(90)}`;
    const decided = await decideClaim(t.db, moderator.id, claim.id, { decision: "reject", note }, key());
    expect(decided.decisionNote).toBe(note.trim());
    const [entry] = await logged("claim.reject");
    expect(entry!.target.id).toBe(claim.id);
    expect(Array.from(entry!.reason!)).toHaveLength(1000);
    expect(entry!.reason!.endsWith("…")).toBe(true);
    expect(note.startsWith(entry!.reason!.slice(0, -1))).toBe(true);
  });

  it("a moderator's dispute resolution is logged with the deal, the decision, the note and the party it went against; a second resolution adds nothing", async () => {
    const buyer = await funded(200_000);
    const seller = await makeMember(t.db);
    const now = new Date();
    const deadline = new Date(now.getTime() + 7 * 86_400_000);
    let deal = await createDeal(
      t.db,
      seller.id,
      { counterparty: buyer.username, role: "seller", amount: 100_000, description: "Аккаунт Steam с 120 играми", deadline, feePayer: "split" },
      key(),
      now,
    );
    for (const action of ["accept", "fund"] as const) deal = await applyDealAction(t.db, buyer.id, deal.id, action, {}, key(), now);
    await applyDealAction(t.db, buyer.id, deal.id, "dispute", { reason: "Продавец не выходит на связь" }, key(), now);
    const size = await logSize();
    await expect(applyDealAction(t.db, buyer.id, deal.id, "resolve", { resolution: "refund", note: "Сам себе" }, key(), now)).rejects.toMatchObject({
      code: "own_deal",
    });
    expect(await logSize()).toBe(size);

    await applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "split", sellerShare: 40_000, note: "Передана половина товара" }, key(), now);
    const entries = await logged("deal.resolve");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { id: moderator.id },
      actionLabel: "Разрешил спор по сделке",
      target: { type: "deal", id: deal.id, url: `/services/guarantor/deals/${deal.id}` },
      reason: "Передана половина товара",
      details: { resolution: "split", sellerShare: 40_000, buyerId: buyer.id, sellerId: seller.id },
      // The buyer opened the dispute: a split names the seller it was opened against.
      targetUser: { id: seller.id },
    });
    // It shows under the seller's «Действия модераторов» on /admin/members/{id}, not the buyer's.
    expect((await getMemberAdminView(t.db, moderator.id, seller.id)).recentActions.map((e) => e.action)).toContain("deal.resolve");
    expect((await getMemberAdminView(t.db, moderator.id, buyer.id)).recentActions.map((e) => e.action)).not.toContain("deal.resolve");
    await expect(applyDealAction(t.db, moderator.id, deal.id, "resolve", { resolution: "release", note: "Ещё раз" }, key(), now)).rejects.toMatchObject({
      status: 409,
    });
    expect(await logged("deal.resolve")).toHaveLength(1);
  });

  it("a release names the buyer, a refund the seller, a split the party the dispute was opened against", () => {
    const deal = { buyerId: 1, sellerId: 2, disputedBy: 1 };
    expect(resolutionAgainst(deal, "release")).toBe(1);
    expect(resolutionAgainst(deal, "refund")).toBe(2);
    expect(resolutionAgainst(deal, "split")).toBe(2);
    expect(resolutionAgainst({ ...deal, disputedBy: 2 }, "split")).toBe(1);
  });

  it("an admin's ad approval and rejection are logged against the advertiser; a moderator's review and a second review add nothing", async () => {
    const [slot] = await t.db.select().from(adSlots).orderBy(adSlots.id);
    const advertiser = await funded(slot!.pricePerDay * 10);
    const fields = { slotId: slot!.id, title: "Продам скины CS2", body: "Дёшево и с гарантом", link: "https://example.com/skins", days: 2 };
    const first = await requestAd(t.db, storage, advertiser, fields, key());
    const second = await requestAd(t.db, storage, advertiser, { ...fields, title: "Куплю аккаунт" }, key());

    const size = await logSize();
    await expect(approveAd(t.db, moderator, first.adId, key())).rejects.toMatchObject({ code: "not_admin" });
    expect(await logSize()).toBe(size);

    await approveAd(t.db, admin, first.adId, key());
    await rejectAd(t.db, admin, second.adId, "Реклама аккаунтов запрещена", key());
    expect((await logged("ad.approve"))[0]).toMatchObject({
      actor: { id: admin.id },
      actionLabel: "Одобрил рекламу",
      target: { type: "ad", id: first.adId, url: `/admin/ads#ad-${first.adId}` },
      targetUser: { id: advertiser.id },
      details: { title: "Продам скины CS2", amount: first.amount },
    });
    expect((await logged("ad.reject"))[0]).toMatchObject({
      actor: { id: admin.id },
      actionLabel: "Отклонил рекламу",
      target: { type: "ad", id: second.adId },
      targetUser: { id: advertiser.id },
      reason: "Реклама аккаунтов запрещена",
    });

    const after = await logSize();
    await expect(rejectAd(t.db, admin, first.adId, "Поздно", key())).rejects.toMatchObject({ code: "ad_already_reviewed" });
    expect(await logSize()).toBe(after);
  });

  it("an admin's upload, edit, move and delete of a track are logged with its title; refused changes add nothing", async () => {
    const member = await makeMember(t.db);
    const size = await logSize();
    await expect(uploadTrack(t.db, storage, member, { bytes: demoTrack(), fileName: "x.mp3" })).rejects.toMatchObject({ code: "not_admin" });
    await expect(uploadTrack(t.db, storage, admin, { bytes: new Uint8Array(), fileName: "x.mp3" })).rejects.toMatchObject({ status: 400 });
    expect(await logSize()).toBe(size);

    const first = await uploadTrack(t.db, storage, admin, { bytes: demoTrack(), fileName: "x.mp3" });
    const second = await uploadTrack(t.db, storage, admin, { bytes: demoTrack(), fileName: "x.mp3", title: "Второй" });
    expect((await logged("track.upload"))[1]).toMatchObject({
      actor: { id: admin.id },
      actionLabel: "Загрузил трек",
      target: { type: "track", id: first.id, url: `/admin/music/${first.id}` },
      details: { title: "Гарант спит спокойно", artist: "Восьмибитный Кот" },
    });

    const beforeEdit = await logSize();
    await expect(updateTrack(t.db, storage, admin, first.id, { title: " ", artist: "" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(updateTrack(t.db, storage, admin, 2_147_483_647, { title: "Нет такого", artist: "" })).rejects.toMatchObject({ code: "track_not_found" });
    expect(await logSize()).toBe(beforeEdit);
    await updateTrack(t.db, storage, admin, first.id, { title: "Гарант не спит", artist: "Восьмибитный Кот" });
    expect((await logged("track.edit"))[0]).toMatchObject({
      actionLabel: "Изменил трек",
      target: { type: "track", id: first.id, url: `/admin/music/${first.id}` },
      details: { title: "Гарант не спит", titleFrom: "Гарант спит спокойно" },
    });

    await moveTrack(t.db, admin, second.id, "up");
    expect((await logged("track.move"))[0]).toMatchObject({ target: { type: "track", id: second.id }, details: { title: "Второй", direction: "up" } });

    await deleteTrack(t.db, storage, admin, second.id);
    expect((await logged("track.delete"))[0]).toMatchObject({
      actor: { id: admin.id },
      actionLabel: "Удалил трек",
      // The track is gone: no link, its title stays in the entry.
      target: { type: "track", id: second.id, url: null },
      details: { title: "Второй" },
    });
    const afterDelete = await logSize();
    await expect(deleteTrack(t.db, storage, admin, second.id)).rejects.toMatchObject({ code: "track_not_found" });
    expect(await logSize()).toBe(afterDelete);
  });

  it("an admin's FAQ sections and questions — added, edited, published, hidden, moved, deleted — are each logged; refused changes add nothing", async () => {
    const member = await makeMember(t.db);
    const size = await logSize();
    await expect(createFaqSection(t.db, member, { title: "Чужой раздел" })).rejects.toMatchObject({ code: "not_admin" });
    await expect(renameFaqSection(t.db, admin, 2_147_483_647, { title: "Нет такого" })).rejects.toMatchObject({ code: "faq_section_not_found" });
    expect(await logSize()).toBe(size);

    const section = await createFaqSection(t.db, admin, { title: "Оплата" });
    const other = await createFaqSection(t.db, admin, { title: "Доставка" });
    await renameFaqSection(t.db, admin, section.id, { title: "Оплата и возвраты" });
    await moveFaqSection(t.db, admin, other.id, "up");
    const entry = await createFaqEntry(t.db, admin, { sectionId: section.id, question: "Как вернуть деньги?", answer: "Через спор." });
    const next = await createFaqEntry(t.db, admin, { sectionId: section.id, question: "Сколько ждать?", answer: "До 72 часов." });
    await updateFaqEntry(t.db, admin, entry.id, { sectionId: section.id, question: "Как вернуть деньги за сделку?", answer: "Через спор." });
    await setFaqEntryPublished(t.db, admin, entry.id, true);
    await setFaqEntryPublished(t.db, admin, entry.id, false);
    await moveFaqEntry(t.db, admin, next.id, "up");
    await deleteFaqEntry(t.db, admin, next.id);
    await deleteFaqSection(t.db, admin, other.id);

    const log = (await listAuditLog(t.db, moderator.id, { actor: admin.id }, { page: 1, perPage: 12 })).items.reverse();
    expect(log.map((e) => [e.action, e.target.type, e.target.id, e.target.url])).toEqual([
      ["faq.create", "faq_section", section.id, "/admin/faq"],
      ["faq.create", "faq_section", other.id, "/admin/faq"],
      ["faq.edit", "faq_section", section.id, "/admin/faq"],
      ["faq.move", "faq_section", other.id, "/admin/faq"],
      ["faq.create", "faq_entry", entry.id, `/admin/faq/entries/${entry.id}`],
      ["faq.create", "faq_entry", next.id, `/admin/faq/entries/${next.id}`],
      ["faq.edit", "faq_entry", entry.id, `/admin/faq/entries/${entry.id}`],
      ["faq.publish", "faq_entry", entry.id, `/admin/faq/entries/${entry.id}`],
      ["faq.unpublish", "faq_entry", entry.id, `/admin/faq/entries/${entry.id}`],
      ["faq.move", "faq_entry", next.id, `/admin/faq/entries/${next.id}`],
      ["faq.delete", "faq_entry", next.id, null],
      ["faq.delete", "faq_section", other.id, null],
    ]);
    expect(log[2]!.details).toMatchObject({ title: "Оплата и возвраты", titleFrom: "Оплата" });
    expect(log[6]!.details).toMatchObject({ question: "Как вернуть деньги за сделку?", questionFrom: "Как вернуть деньги?" });
    expect(log.map((e) => e.actionLabel).slice(7, 9)).toEqual(["Опубликовал в FAQ", "Снял с публикации в FAQ"]);
    expect(log[11]).toMatchObject({ actionLabel: "Удалил из FAQ", details: { title: "Доставка" } });

    const before = await logSize();
    await expect(deleteFaqEntry(t.db, admin, next.id)).rejects.toMatchObject({ code: "faq_entry_not_found" });
    await expect(setFaqEntryPublished(t.db, member, entry.id, true)).rejects.toMatchObject({ code: "not_admin" });
    expect(await logSize()).toBe(before);
  });

  it("the /admin/log filter accepts every new action and lists only its entries", async () => {
    for (const action of ["money.topup", "claim.uphold", "deal.resolve", "ad.reject", "track.delete", "faq.unpublish"] as const) {
      expect(AuditLogQuerySchema.parse({ actor: "", targetUser: "", action, from: "", to: "" }).action).toBe(action);
      const entries = await logged(action);
      expect(entries.length, action).toBeGreaterThan(0);
      expect(new Set(entries.map((e) => e.action))).toEqual(new Set([action]));
    }
  });
});
