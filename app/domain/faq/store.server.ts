/**
 * What the FAQ's reads and edits share (faq.server.ts, sections.server.ts, entries.server.ts):
 * input parsing, finding and locking rows, free anchors, moving by position, the not-found errors.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { faqEntries, faqSections } from "~/db/schema";
import { NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import type { UserRole } from "../users/roles";
import { FaqEntryInputSchema, FaqSectionInputSchema } from "./schemas";
import type { AdminFaqEntryDto } from "./types";

export type Actor = { id: number; role: UserRole };
export type EntryRow = typeof faqEntries.$inferSelect;

/** Two admins saving the same anchor at once: the database's unique key refuses the second. */
export async function anchorRace<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const message = "Такой якорь уже есть у другого вопроса";
    throw new ValidationFailed(message, { anchor: [message] }, "faq_anchor_taken");
  }
}

/** What an audit entry keeps of a question, so it still reads after the question is deleted. */
export function entryDetails(row: EntryRow): { question: string; sectionId: number; published: boolean } {
  return { question: row.question, sectionId: row.sectionId, published: row.published };
}

export function toAdminEntryDto(row: EntryRow): AdminFaqEntryDto {
  return {
    id: row.id,
    sectionId: row.sectionId,
    question: row.question,
    answer: row.answer,
    anchor: row.anchor,
    published: row.published,
    position: row.position,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function parse<S extends typeof FaqEntryInputSchema | typeof FaqSectionInputSchema>(schema: S, input: unknown) {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Проверьте поля формы", fields, "invalid_input");
  }
  return parsed.data as S["_output"];
}

export async function findEntry(db: Db, id: number): Promise<EntryRow> {
  const [row] = await db
    .select()
    .from(faqEntries)
    .where(eq(faqEntries.id, validId(id, entryNotFound)));
  if (!row) throw entryNotFound();
  return row;
}

export async function lockSection(tx: Tx, sectionId: number): Promise<void> {
  const [section] = await tx
    .select({ id: faqSections.id })
    .from(faqSections)
    .where(eq(faqSections.id, validId(sectionId, sectionNotFound)))
    .for("update");
  if (!section) {
    const message = "Раздел не найден: обновите страницу";
    throw new NotFound(message, "faq_section_not_found");
  }
}

/** `base`, or `base-2`, `base-3`… — the first slug no section (or question) has. */
export async function freeSlug(tx: Tx, of: "section" | "entry", base: string): Promise<string> {
  const table = of === "section" ? faqSections : faqEntries;
  const column = of === "section" ? faqSections.slug : faqEntries.anchor;
  const taken = new Set(
    (
      await tx
        .select({ value: column })
        .from(table)
        .where(sql`${column} = ${base} or ${column} like ${`${base}-%`}`)
    ).map((row) => row.value),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A hand-typed anchor, refused when another question has it. */
export async function ownAnchor(tx: Tx, anchor: string, entryId: number | null): Promise<string> {
  const [other] = await tx.select({ id: faqEntries.id }).from(faqEntries).where(eq(faqEntries.anchor, anchor));
  if (other && other.id !== entryId) {
    const message = "Такой якорь уже есть у другого вопроса";
    throw new ValidationFailed(message, { anchor: [message] }, "faq_anchor_taken");
  }
  return anchor;
}

export type Positioned = { position: number; id: number };

export type PositionColumns = typeof faqSections.position | typeof faqEntries.position;
export type IdColumns = typeof faqSections.id | typeof faqEntries.id;

export function neighbourOf(position: PositionColumns, id: IdColumns, of: Positioned, direction: "up" | "down") {
  return direction === "up" ? sql`(${position}, ${id}) < (${of.position}, ${of.id})` : sql`(${position}, ${id}) > (${of.position}, ${of.id})`;
}

export function orderFor(position: PositionColumns, id: IdColumns, direction: "up" | "down") {
  return direction === "up" ? [desc(position), desc(id)] : [asc(position), asc(id)];
}

/** New positions of the moving row and its neighbour; equal positions still get an order. */
export function swapped(mine: number, theirs: number, direction: "up" | "down"): [number, number] {
  if (mine !== theirs) return [theirs, mine];
  return direction === "up" ? [mine - 1, mine] : [mine + 1, mine];
}

export function sectionNotFound(): NotFound {
  return new NotFound("Раздел не найден", "faq_section_not_found");
}

export function entryNotFound(): NotFound {
  return new NotFound("Вопрос не найден", "faq_entry_not_found");
}

export function validId(id: number, notFound: () => NotFound): number {
  if (!isValidId(id)) throw notFound();
  return id;
}
