/**
 * The FAQ (issue 11; docs/product/pages.md "/faq"): sections of questions with Markdown
 * answers, ordered, each question a draft or published, edited by admins at /admin/faq.
 * Readers see published questions of non-empty sections, optionally filtered (filter.ts).
 * Answers render with the posts' sanitising renderer (app/lib/markdown.server.ts).
 */
import { and, asc, desc, eq, max, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { faqEntries, faqSections } from "~/db/schema";
import { NotFound, ValidationFailed } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { markdownExcerpt, renderMarkdown } from "~/lib/markdown.server";
import { assertAdmin } from "../users/roles-admin";
import type { UserRole } from "../users/roles";
import { slugify } from "./anchors";
import { filterWords, matchesFilter, normalizeForFilter } from "./filter";
import { FaqEntryInputSchema, FaqSectionInputSchema, type FaqEntryInput, type FaqSectionInput } from "./schemas";
import { MAX_FILTER_LENGTH, type AdminFaqEntryDto, type AdminFaqSectionDto, type FaqSectionDto } from "./types";

type Actor = { id: number; role: UserRole };
type EntryRow = typeof faqEntries.$inferSelect;

export interface PublishedFaq {
  sections: FaqSectionDto[];
  /** Published questions in all. */
  total: number;
  /** Questions shown after the filter. */
  shown: number;
  /** The filter applied (trimmed, at most 100 characters), "" for none. */
  query: string;
}

/**
 * The published FAQ in order: sections by position, their published questions by position,
 * answers rendered to safe HTML. With `query`, only questions whose question or answer contain
 * every word of it (filter.ts), and only sections left with questions.
 */
export async function getPublishedFaq(db: Db, query = ""): Promise<PublishedFaq> {
  const q = query.trim().slice(0, MAX_FILTER_LENGTH);
  const words = filterWords(q);
  const rows = await db
    .select({ section: faqSections, entry: faqEntries })
    .from(faqEntries)
    .innerJoin(faqSections, eq(faqSections.id, faqEntries.sectionId))
    .where(eq(faqEntries.published, true))
    .orderBy(asc(faqSections.position), asc(faqSections.id), asc(faqEntries.position), asc(faqEntries.id));
  const sections: FaqSectionDto[] = [];
  let shown = 0;
  for (const { section, entry } of rows) {
    const filterText = normalizeForFilter(`${entry.question} ${markdownExcerpt(entry.answer, 100_000)}`);
    if (!matchesFilter(filterText, words)) continue;
    let last = sections.at(-1);
    if (last?.id !== section.id) {
      last = { id: section.id, title: section.title, slug: section.slug, entries: [] };
      sections.push(last);
    }
    last.entries.push({ id: entry.id, question: entry.question, anchor: entry.anchor, answerHtml: renderMarkdown(entry.answer), filterText });
    shown += 1;
  }
  return { sections, total: rows.length, shown, query: q };
}

/** Every section with every question (drafts too), for /admin/faq. Throws Forbidden (`not_admin`). */
export async function getAdminFaq(db: Db, actor: Actor): Promise<AdminFaqSectionDto[]> {
  assertAdmin(actor);
  const [sectionRows, entryRows] = await Promise.all([
    db.select().from(faqSections).orderBy(asc(faqSections.position), asc(faqSections.id)),
    db.select().from(faqEntries).orderBy(asc(faqEntries.position), asc(faqEntries.id)),
  ]);
  return sectionRows.map((section) => ({
    id: section.id,
    title: section.title,
    slug: section.slug,
    position: section.position,
    entries: entryRows.filter((entry) => entry.sectionId === section.id).map(toAdminEntryDto),
  }));
}

/** One question for its edit page. Throws Forbidden (`not_admin`), NotFound (`faq_entry_not_found`). */
export async function getAdminFaqEntry(db: Db, actor: Actor, id: number): Promise<AdminFaqEntryDto> {
  assertAdmin(actor);
  return toAdminEntryDto(await findEntry(db, id));
}

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
    return row!;
  });
}

/** Admin `actor` renames section `id` (its anchor stays, so links keep working). Throws Forbidden, NotFound (`faq_section_not_found`), ValidationFailed. */
export async function renameFaqSection(db: Db, actor: Actor, id: number, input: FaqSectionInput): Promise<void> {
  assertAdmin(actor);
  const { title } = parse(FaqSectionInputSchema, input);
  const rows = await db
    .update(faqSections)
    .set({ title, updatedAt: new Date() })
    .where(eq(faqSections.id, validId(id, sectionNotFound)))
    .returning({ id: faqSections.id });
  if (rows.length === 0) throw sectionNotFound();
}

/** Admin `actor` deletes section `id` with its questions. Throws Forbidden, NotFound (`faq_section_not_found`). */
export async function deleteFaqSection(db: Db, actor: Actor, id: number): Promise<void> {
  assertAdmin(actor);
  const rows = await db
    .delete(faqSections)
    .where(eq(faqSections.id, validId(id, sectionNotFound)))
    .returning({ id: faqSections.id });
  if (rows.length === 0) throw sectionNotFound();
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
  });
}

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
      return toAdminEntryDto(row!);
    }),
  );
}

/** Admin `actor` publishes or hides question `id`. Throws Forbidden, NotFound (`faq_entry_not_found`). */
export async function setFaqEntryPublished(db: Db, actor: Actor, id: number, published: boolean): Promise<void> {
  assertAdmin(actor);
  const rows = await db
    .update(faqEntries)
    .set({ published, updatedBy: actor.id, updatedAt: new Date() })
    .where(eq(faqEntries.id, validId(id, entryNotFound)))
    .returning({ id: faqEntries.id });
  if (rows.length === 0) throw entryNotFound();
}

/** Admin `actor` deletes question `id`. Throws Forbidden, NotFound (`faq_entry_not_found`). */
export async function deleteFaqEntry(db: Db, actor: Actor, id: number): Promise<void> {
  assertAdmin(actor);
  const rows = await db
    .delete(faqEntries)
    .where(eq(faqEntries.id, validId(id, entryNotFound)))
    .returning({ id: faqEntries.id });
  if (rows.length === 0) throw entryNotFound();
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
  });
}

/** The sections for the entry form's select. Throws Forbidden (`not_admin`). */
export async function listFaqSectionChoices(db: Db, actor: Actor): Promise<{ id: number; title: string }[]> {
  assertAdmin(actor);
  return db.select({ id: faqSections.id, title: faqSections.title }).from(faqSections).orderBy(asc(faqSections.position), asc(faqSections.id));
}

/** Two admins saving the same anchor at once: the database's unique key refuses the second. */
async function anchorRace<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const message = "Такой якорь уже есть у другого вопроса";
    throw new ValidationFailed(message, { anchor: [message] }, "faq_anchor_taken");
  }
}

function toAdminEntryDto(row: EntryRow): AdminFaqEntryDto {
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

function parse<S extends typeof FaqEntryInputSchema | typeof FaqSectionInputSchema>(schema: S, input: unknown) {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    throw new ValidationFailed(parsed.error.issues[0]?.message ?? "Проверьте поля формы", fields, "invalid_input");
  }
  return parsed.data as S["_output"];
}

async function findEntry(db: Db, id: number): Promise<EntryRow> {
  const [row] = await db
    .select()
    .from(faqEntries)
    .where(eq(faqEntries.id, validId(id, entryNotFound)));
  if (!row) throw entryNotFound();
  return row;
}

async function lockSection(tx: Tx, sectionId: number): Promise<void> {
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
async function freeSlug(tx: Tx, of: "section" | "entry", base: string): Promise<string> {
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
async function ownAnchor(tx: Tx, anchor: string, entryId: number | null): Promise<string> {
  const [other] = await tx.select({ id: faqEntries.id }).from(faqEntries).where(eq(faqEntries.anchor, anchor));
  if (other && other.id !== entryId) {
    const message = "Такой якорь уже есть у другого вопроса";
    throw new ValidationFailed(message, { anchor: [message] }, "faq_anchor_taken");
  }
  return anchor;
}

type Positioned = { position: number; id: number };

type PositionColumns = typeof faqSections.position | typeof faqEntries.position;
type IdColumns = typeof faqSections.id | typeof faqEntries.id;

function neighbourOf(position: PositionColumns, id: IdColumns, of: Positioned, direction: "up" | "down") {
  return direction === "up" ? sql`(${position}, ${id}) < (${of.position}, ${of.id})` : sql`(${position}, ${id}) > (${of.position}, ${of.id})`;
}

function orderFor(position: PositionColumns, id: IdColumns, direction: "up" | "down") {
  return direction === "up" ? [desc(position), desc(id)] : [asc(position), asc(id)];
}

/** New positions of the moving row and its neighbour; equal positions still get an order. */
function swapped(mine: number, theirs: number, direction: "up" | "down"): [number, number] {
  if (mine !== theirs) return [theirs, mine];
  return direction === "up" ? [mine - 1, mine] : [mine + 1, mine];
}

function sectionNotFound(): NotFound {
  return new NotFound("Раздел не найден", "faq_section_not_found");
}

function entryNotFound(): NotFound {
  return new NotFound("Вопрос не найден", "faq_entry_not_found");
}

function validId(id: number, notFound: () => NotFound): number {
  if (!isValidId(id)) throw notFound();
  return id;
}
