/**
 * FAQ questions as admins edit them at /admin/faq (docs/product/pages.md "/faq"): add, change,
 * publish or hide, delete and move within the section. Every change is written to the audit log in
 * its own transaction (docs/product/moderation.md#audit-log), with the question so it reads after a delete.
 */
import { and, eq, max } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { faqEntries } from "~/db/schema";
import { writeAudit } from "../moderation/audit.server";
import { assertAdmin } from "../users/roles-admin";
import { slugify } from "./anchors";
import { FaqEntryInputSchema, type FaqEntryInput } from "./schemas";
import { type AdminFaqEntryDto } from "./types";
import {
  anchorRace,
  entryDetails,
  entryNotFound,
  freeSlug,
  lockSection,
  neighbourOf,
  orderFor,
  ownAnchor,
  parse,
  swapped,
  toAdminEntryDto,
  validId,
  type Actor,
} from "./store.server";

/**
 * Admin `actor` adds a question at the end of its section: a draft unless `published`; the
 * anchor is the one given or made from the question (with «-2», «-3»… when taken). Returns the
 * question. Throws Forbidden (`not_admin`), ValidationFailed (`invalid_input` with field errors,
 * e.g. «Укажите вопрос»), NotFound (`faq_section_not_found`), Conflict-free: a taken anchor typed
 * by hand is ValidationFailed `faq_anchor_taken` under `anchor`. Nothing is saved when refused.
 */
export async function createFaqEntry(db: Db, actor: Actor, input: FaqEntryInput): Promise<AdminFaqEntryDto> {
  assertAdmin(actor);
  const value = parse(FaqEntryInputSchema, input);
  return anchorRace(() =>
    db.transaction(async (tx) => {
      await lockSection(tx, value.sectionId);
      const [last] = await tx
        .select({ value: max(faqEntries.position) })
        .from(faqEntries)
        .where(eq(faqEntries.sectionId, value.sectionId));
      const anchor = value.anchor ? await ownAnchor(tx, value.anchor, null) : await freeSlug(tx, "entry", slugify(value.question) || "vopros");
      const [row] = await tx
        .insert(faqEntries)
        .values({
          sectionId: value.sectionId,
          question: value.question,
          answer: value.answer,
          anchor,
          published: value.published ?? false,
          position: (last?.value ?? 0) + 1,
          updatedBy: actor.id,
        })
        .returning();
      await writeAudit(tx, { actorId: actor.id, action: "faq.create", targetType: "faq_entry", targetId: row!.id, details: entryDetails(row!) });
      return toAdminEntryDto(row!);
    }),
  );
}

/**
 * Admin `actor` edits question `id` (section, question, answer, anchor, published). An emptied
 * anchor keeps the old one, so links keep working. Moving to another section puts it last there.
 * Throws as createFaqEntry, and NotFound (`faq_entry_not_found`).
 */
export async function updateFaqEntry(db: Db, actor: Actor, id: number, input: FaqEntryInput): Promise<AdminFaqEntryDto> {
  assertAdmin(actor);
  const value = parse(FaqEntryInputSchema, input);
  return anchorRace(() =>
    db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(faqEntries)
        .where(eq(faqEntries.id, validId(id, entryNotFound)))
        .for("update");
      if (!current) throw entryNotFound();
      let position = current.position;
      if (value.sectionId !== current.sectionId) {
        await lockSection(tx, value.sectionId);
        const [last] = await tx
          .select({ value: max(faqEntries.position) })
          .from(faqEntries)
          .where(eq(faqEntries.sectionId, value.sectionId));
        position = (last?.value ?? 0) + 1;
      }
      const anchor = value.anchor ? await ownAnchor(tx, value.anchor, current.id) : current.anchor;
      const [row] = await tx
        .update(faqEntries)
        .set({
          sectionId: value.sectionId,
          question: value.question,
          answer: value.answer,
          anchor,
          published: value.published ?? false,
          position,
          updatedBy: actor.id,
          updatedAt: new Date(),
        })
        .where(eq(faqEntries.id, current.id))
        .returning();
      await writeAudit(tx, {
        actorId: actor.id,
        action: "faq.edit",
        targetType: "faq_entry",
        targetId: row!.id,
        details: { ...entryDetails(row!), ...(current.question !== row!.question ? { questionFrom: current.question } : {}) },
      });
      return toAdminEntryDto(row!);
    }),
  );
}

/** Admin `actor` publishes or hides question `id`. Throws Forbidden, NotFound (`faq_entry_not_found`). */
export async function setFaqEntryPublished(db: Db, actor: Actor, id: number, published: boolean): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(faqEntries)
      .set({ published, updatedBy: actor.id, updatedAt: new Date() })
      .where(eq(faqEntries.id, validId(id, entryNotFound)))
      .returning();
    if (!row) throw entryNotFound();
    await writeAudit(tx, {
      actorId: actor.id,
      action: published ? "faq.publish" : "faq.unpublish",
      targetType: "faq_entry",
      targetId: row.id,
      details: entryDetails(row),
    });
  });
}

/** Admin `actor` deletes question `id`. Throws Forbidden, NotFound (`faq_entry_not_found`). */
export async function deleteFaqEntry(db: Db, actor: Actor, id: number): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(faqEntries)
      .where(eq(faqEntries.id, validId(id, entryNotFound)))
      .returning();
    if (!row) throw entryNotFound();
    await writeAudit(tx, { actorId: actor.id, action: "faq.delete", targetType: "faq_entry", targetId: row.id, details: entryDetails(row) });
  });
}

/** Admin `actor` moves question `id` one place up or down within its section. Throws Forbidden, NotFound (`faq_entry_not_found`). */
export async function moveFaqEntry(db: Db, actor: Actor, id: number, direction: "up" | "down"): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const [entry] = await tx
      .select()
      .from(faqEntries)
      .where(eq(faqEntries.id, validId(id, entryNotFound)))
      .for("update");
    if (!entry) throw entryNotFound();
    const [neighbour] = await tx
      .select()
      .from(faqEntries)
      .where(and(eq(faqEntries.sectionId, entry.sectionId), neighbourOf(faqEntries.position, faqEntries.id, entry, direction)))
      .orderBy(...orderFor(faqEntries.position, faqEntries.id, direction))
      .limit(1)
      .for("update");
    if (!neighbour) return;
    const [mine, theirs] = swapped(entry.position, neighbour.position, direction);
    await tx.update(faqEntries).set({ position: mine }).where(eq(faqEntries.id, entry.id));
    await tx.update(faqEntries).set({ position: theirs }).where(eq(faqEntries.id, neighbour.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: "faq.move",
      targetType: "faq_entry",
      targetId: entry.id,
      details: { ...entryDetails(entry), direction },
    });
  });
}
