/**
 * The FAQ (issue 11; docs/product/pages.md "/faq"): sections of questions with Markdown
 * answers, ordered, each question a draft or published, edited by admins at /admin/faq.
 * Readers see published questions of non-empty sections, optionally filtered (filter.ts).
 * Answers render with the posts' sanitising renderer (app/lib/markdown.server.ts).
 * Reads only: the edits are in sections.server.ts and entries.server.ts, their shared pieces in store.server.ts.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { faqEntries, faqSections } from "~/db/schema";
import { markdownExcerpt, renderMarkdown } from "~/lib/markdown.server";
import { assertAdmin } from "../users/roles-admin";
import { filterWords, matchesFilter, normalizeForFilter } from "./filter";
import { MAX_FILTER_LENGTH, type AdminFaqEntryDto, type AdminFaqSectionDto, type FaqSectionDto } from "./types";
import { findEntry, toAdminEntryDto, type Actor } from "./store.server";

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

/** The sections for the entry form's select. Throws Forbidden (`not_admin`). */
export async function listFaqSectionChoices(db: Db, actor: Actor): Promise<{ id: number; title: string }[]> {
  assertAdmin(actor);
  return db.select({ id: faqSections.id, title: faqSections.title }).from(faqSections).orderBy(asc(faqSections.position), asc(faqSections.id));
}
