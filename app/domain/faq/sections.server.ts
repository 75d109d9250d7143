/**
 * FAQ sections as admins edit them at /admin/faq (docs/product/pages.md "/faq"): add, rename,
 * delete and move. Every change is written to the audit log in its own transaction
 * (docs/product/moderation.md#audit-log), with the title so it reads after a delete.
 */
import { eq, max } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { faqSections } from "~/db/schema";
import { writeAudit } from "../moderation/audit.server";
import { assertAdmin } from "../users/roles-admin";
import { slugify } from "./anchors";
import { FaqSectionInputSchema, type FaqSectionInput } from "./schemas";
import { freeSlug, neighbourOf, orderFor, parse, sectionNotFound, swapped, validId, type Actor } from "./store.server";

/**
 * Admin `actor` adds a section at the end; its anchor is made from the title. Returns the
 * section. Throws Forbidden (`not_admin`), ValidationFailed (`invalid_input`).
 */
export async function createFaqSection(db: Db, actor: Actor, input: FaqSectionInput): Promise<{ id: number; slug: string }> {
  assertAdmin(actor);
  const { title } = parse(FaqSectionInputSchema, input);
  return db.transaction(async (tx) => {
    const [last] = await tx.select({ value: max(faqSections.position) }).from(faqSections);
    const slug = await freeSlug(tx, "section", slugify(title) || "razdel");
    const [row] = await tx
      .insert(faqSections)
      .values({ title, slug, position: (last?.value ?? 0) + 1 })
      .returning({ id: faqSections.id, slug: faqSections.slug });
    await writeAudit(tx, { actorId: actor.id, action: "faq.create", targetType: "faq_section", targetId: row!.id, details: { title } });
    return row!;
  });
}

/** Admin `actor` renames section `id` (its anchor stays, so links keep working). Throws Forbidden, NotFound (`faq_section_not_found`), ValidationFailed. */
export async function renameFaqSection(db: Db, actor: Actor, id: number, input: FaqSectionInput): Promise<void> {
  assertAdmin(actor);
  const { title } = parse(FaqSectionInputSchema, input);
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: faqSections.id, title: faqSections.title })
      .from(faqSections)
      .where(eq(faqSections.id, validId(id, sectionNotFound)))
      .for("update");
    if (!current) throw sectionNotFound();
    await tx.update(faqSections).set({ title, updatedAt: new Date() }).where(eq(faqSections.id, current.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: "faq.edit",
      targetType: "faq_section",
      targetId: current.id,
      details: { title, titleFrom: current.title },
    });
  });
}

/** Admin `actor` deletes section `id` with its questions. Throws Forbidden, NotFound (`faq_section_not_found`). */
export async function deleteFaqSection(db: Db, actor: Actor, id: number): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(faqSections)
      .where(eq(faqSections.id, validId(id, sectionNotFound)))
      .returning({ id: faqSections.id, title: faqSections.title });
    if (!row) throw sectionNotFound();
    await writeAudit(tx, { actorId: actor.id, action: "faq.delete", targetType: "faq_section", targetId: row.id, details: { title: row.title } });
  });
}

/** Admin `actor` moves section `id` one place up or down. Throws Forbidden, NotFound (`faq_section_not_found`). */
export async function moveFaqSection(db: Db, actor: Actor, id: number, direction: "up" | "down"): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const [section] = await tx
      .select()
      .from(faqSections)
      .where(eq(faqSections.id, validId(id, sectionNotFound)))
      .for("update");
    if (!section) throw sectionNotFound();
    const [neighbour] = await tx
      .select()
      .from(faqSections)
      .where(neighbourOf(faqSections.position, faqSections.id, section, direction))
      .orderBy(...orderFor(faqSections.position, faqSections.id, direction))
      .limit(1)
      .for("update");
    if (!neighbour) return;
    const [mine, theirs] = swapped(section.position, neighbour.position, direction);
    await tx.update(faqSections).set({ position: mine }).where(eq(faqSections.id, section.id));
    await tx.update(faqSections).set({ position: theirs }).where(eq(faqSections.id, neighbour.id));
    await writeAudit(tx, {
      actorId: actor.id,
      action: "faq.move",
      targetType: "faq_section",
      targetId: section.id,
      details: { title: section.title, direction },
    });
  });
}
