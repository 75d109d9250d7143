import { getZodConstraint } from "@conform-to/zod/v4";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adSlots, auditLog } from "~/db/schema";
import type { UserRow } from "~/domain/users/users.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/moderation";
import { listAdSlots } from "./ads.server";
import { AdSlotFormSchema, type AdSlotInput } from "./schemas";
import { getAdSlotForAdmin, listAdSlotsForAdmin, saveAdSlot } from "./slots.server";

let t: TestDatabase;
let admin: UserRow;
let moderator: UserRow;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = await makeMember(t.db, "admin");
  moderator = await makeMember(t.db, "moderator");
});
afterAll(async () => {
  await t?.destroy();
});

const sidebar: AdSlotInput = { name: "Баннер сбоку", placement: "sidebar", pricePerDay: 25_000, capacity: 2, active: true };

describe("ad slots run by admins", () => {
  it("an admin adds a slot: it is on sale on /ads at its price and capacity", async () => {
    const { slotId, created } = await saveAdSlot(t.db, admin, null, sidebar);
    expect(created).toBe(true);
    const onSale = (await listAdSlots(t.db)).find((slot) => slot.id === slotId);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "ad_slot"), eq(auditLog.targetId, slotId)));
    expect(entry).toMatchObject({ actorId: admin.id, action: "ad_slot.create", details: { name: "Баннер сбоку", pricePerDay: 25_000 } });
    expect(onSale).toMatchObject({ name: "Баннер сбоку", placement: "sidebar", feedPosition: null, pricePerDay: 25_000, capacity: 2, running: 0 });
  });

  it("changing the price and taking a slot off sale: /ads no longer offers it, the admins' list still shows it", async () => {
    const { slotId } = await saveAdSlot(t.db, admin, null, { ...sidebar, name: "Временный баннер" });
    await saveAdSlot(t.db, admin, slotId, { ...sidebar, name: "Временный баннер", pricePerDay: 30_000, active: false });
    expect((await listAdSlots(t.db)).some((slot) => slot.id === slotId)).toBe(false);
    expect(await getAdSlotForAdmin(t.db, admin, slotId)).toMatchObject({ pricePerDay: 30_000, active: false, pending: 0 });
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "ad_slot"), eq(auditLog.targetId, slotId)))
      .orderBy(auditLog.id);
    expect(entries.map((entry) => entry.action)).toEqual(["ad_slot.create", "ad_slot.edit"]);
    expect(entries[1]!.details).toMatchObject({ pricePerDay: 30_000, active: false });
    expect((await listAdSlotsForAdmin(t.db, admin)).map((slot) => slot.id)).toContain(slotId);
  });

  it("a feed slot needs the post count it shows after; other placements drop it", async () => {
    await expect(saveAdSlot(t.db, admin, null, { ...sidebar, placement: "feed" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { feedPosition: ["Для места в ленте укажите, после скольких постов его показывать"] },
    });
    const feed = await saveAdSlot(t.db, admin, null, { ...sidebar, placement: "feed", feedPosition: 5 });
    const header = await saveAdSlot(t.db, admin, null, { ...sidebar, placement: "header", feedPosition: 5 });
    const rows = await t.db.select().from(adSlots);
    expect(rows.find((row) => row.id === feed.slotId)?.feedPosition).toBe(5);
    expect(rows.find((row) => row.id === header.slotId)?.feedPosition).toBeNull();
  });

  it("bad input is refused in Russian and saves nothing", async () => {
    const before = await t.db.select().from(adSlots);
    const logBefore = (await t.db.select({ entries: count() }).from(auditLog))[0]!.entries;
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ name: "x" }, "name", "Название — от 2 до 80 символов"],
      [{ name: "д".repeat(10_000) }, "name", "Название — от 2 до 80 символов"],
      [{ pricePerDay: 0 }, "pricePerDay", "Цена за день — от 1 до 1 000 000 ₽"],
      [{ capacity: 21 }, "capacity", "Одновременно — от 1 до 20 объявлений"],
      [{ placement: "popup" }, "placement", "Выберите, где показывать рекламу"],
    ];
    for (const [change, field, message] of refusals) {
      await expect(saveAdSlot(t.db, admin, null, { ...sidebar, ...change } as AdSlotInput)).rejects.toMatchObject({
        status: 400,
        fieldErrors: { [field]: [message] },
      });
    }
    expect(await t.db.select().from(adSlots)).toEqual(before);
    expect((await t.db.select({ entries: count() }).from(auditLog))[0]!.entries).toBe(logBefore);
  });

  it("an unknown slot is 404 and only admins may add or change slots", async () => {
    await expect(saveAdSlot(t.db, admin, 999_999, sidebar)).rejects.toMatchObject({ status: 404, code: "ad_slot_not_found" });
    await expect(getAdSlotForAdmin(t.db, admin, 999_999)).rejects.toMatchObject({ status: 404, code: "ad_slot_not_found" });
    const member = await makeMember(t.db);
    const [first] = await t.db.select().from(adSlots).orderBy(adSlots.id).limit(1);
    for (const who of [moderator, member]) {
      await expect(saveAdSlot(t.db, who, null, sidebar)).rejects.toMatchObject({ status: 403, code: "not_admin" });
      await expect(saveAdSlot(t.db, who, first!.id, { ...sidebar, pricePerDay: 1_00 })).rejects.toMatchObject({ status: 403 });
      await expect(listAdSlotsForAdmin(t.db, who)).rejects.toMatchObject({ status: 403 });
    }
    const [after] = await t.db.select().from(adSlots).where(eq(adSlots.id, first!.id));
    expect(after).toEqual(first);
  });

  it("the form takes the price in roubles as people type it", () => {
    const parsed = AdSlotFormSchema.parse({ intent: "slot-save", name: "Лента", placement: "feed", feedPosition: 3, pricePerDay: "1 234,50", capacity: 1 });
    expect(parsed).toMatchObject({ pricePerDay: 123_450, feedPosition: 3, active: false });
    expect(getZodConstraint(AdSlotFormSchema)).toMatchObject({ name: { required: true } });
    expect(AdSlotFormSchema.safeParse({ intent: "slot-save", name: "Лента", placement: "sidebar", pricePerDay: "бесплатно", capacity: 1 }).success).toBe(false);
  });
});
