/**
 * Advertising slots as admins run them (docs/product/pages.md#ads: a slot
 * has a name, a placement — in the feed after N posts, the sidebar or the header —, a price per
 * day in roubles and how many ads may run at once). Admins list every slot, add one, change one,
 * and take one off sale. A request keeps the price it was made at (ad_campaigns.price_per_day), so
 * a new price applies to new requests only; a slot off sale takes no new requests while the ads
 * already running or waiting in it keep their place.
 *
 * Every function takes the database first and throws the typed errors of ~/lib/errors.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { adSlots } from "~/db/schema";
import { NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { writeAudit } from "../moderation/audit.server";
import { assertAdmin } from "../users/roles-admin";
import { adSlotColumns, parseOrRefuse, type Actor } from "./ads.server";
import { AdSlotInputSchema, type AdSlotInput } from "./schemas";
import type { AdminAdSlotDto } from "./types";

/** Throws NotFound (404, `ad_slot_not_found`) in Russian. */
function slotNotFound(): NotFound {
  return new NotFound("Такого места для рекламы нет", "ad_slot_not_found");
}

/**
 * Every slot, on sale or not, in the order they were made, with the ads running in it at `now`
 * and the requests waiting for review. Admins only: throws Forbidden (`not_admin`) otherwise.
 */
export async function listAdSlotsForAdmin(db: Db, actor: Actor, now: Date = new Date()): Promise<AdminAdSlotDto[]> {
  assertAdmin(actor);
  const rows = await db
    .select({
      ...adSlotColumns(now),
      active: adSlots.active,
      pending: sql<number>`(select count(*)::int from ad_campaigns c where c.slot_id = "ad_slots"."id" and c.state = 'pending')`,
    })
    .from(adSlots)
    .orderBy(asc(adSlots.id));
  return rows.map((row) => ({ ...row, running: Number(row.running), pending: Number(row.pending) }));
}

/** One slot for its edit page; admins only. Throws Forbidden (`not_admin`), NotFound (`ad_slot_not_found`). */
export async function getAdSlotForAdmin(db: Db, actor: Actor, slotId: number): Promise<AdminAdSlotDto> {
  const slot = (await listAdSlotsForAdmin(db, actor)).find((row) => row.id === slotId);
  if (!slot) throw slotNotFound();
  return slot;
}

/**
 * Adds a slot (`slotId` null) or changes one. `input` is parsed with AdSlotInputSchema (price in
 * kopecks, 1 ₽ … 1 000 000 ₽; capacity 1 … 20; a feed slot's position 0 … 50). Returns the slot's id.
 * Throws Forbidden (`not_admin`) unless an admin, ValidationFailed (400, field errors in Russian),
 * NotFound (`ad_slot_not_found`) for a slot that does not exist. Nothing is saved on a refusal.
 * Writes `ad_slot.create` or `ad_slot.edit` to the audit log in the same transaction.
 */
export async function saveAdSlot(db: Db, actor: Actor, slotId: number | null, input: AdSlotInput): Promise<{ slotId: number; created: boolean }> {
  assertAdmin(actor);
  const { name, placement, feedPosition, pricePerDay, capacity, active } = parseOrRefuse(AdSlotInputSchema, input);
  const values = { name, placement, feedPosition: placement === "feed" ? (feedPosition ?? 0) : null, pricePerDay, capacity, active };
  if (slotId !== null && !isValidId(slotId)) throw slotNotFound();
  // The slot and its audit entry commit together (docs/product/moderation.md#audit-log).
  return db.transaction(async (tx) => {
    const [row] =
      slotId === null
        ? await tx.insert(adSlots).values(values).returning({ id: adSlots.id })
        : await tx.update(adSlots).set(values).where(eq(adSlots.id, slotId)).returning({ id: adSlots.id });
    if (!row) throw slotNotFound();
    await writeAudit(tx, {
      actorId: actor.id,
      action: slotId === null ? "ad_slot.create" : "ad_slot.edit",
      targetType: "ad_slot",
      targetId: row.id,
      details: { name, placement, pricePerDay, capacity, active },
    });
    return { slotId: row.id, created: slotId === null };
  });
}
