/** The FAQ's public shapes and limits (issue 11; docs/product/pages.md "/faq"). Pure. */

export const MAX_SECTION_TITLE_LENGTH = 200;
export const MAX_QUESTION_LENGTH = 300;
export const MAX_ANSWER_LENGTH = 20_000;
/** The longest filter text (`?q=`) looked at. */
export const MAX_FILTER_LENGTH = 100;

/** A question as /faq shows it. */
export interface FaqEntryDto {
  id: number;
  question: string;
  /** The question's anchor: /faq#{anchor}. */
  anchor: string;
  /** The answer rendered from Markdown and sanitised. */
  answerHtml: string;
  /** The question and the answer's text, normalised for the filter (normalizeForFilter). */
  filterText: string;
}

export interface FaqSectionDto {
  id: number;
  title: string;
  /** The section's anchor: /faq#{slug}. */
  slug: string;
  entries: FaqEntryDto[];
}

/** A question as /admin/faq lists and edits it. */
export interface AdminFaqEntryDto {
  id: number;
  sectionId: number;
  question: string;
  answer: string;
  anchor: string;
  published: boolean;
  position: number;
  updatedAt: string;
}

export interface AdminFaqSectionDto {
  id: number;
  title: string;
  slug: string;
  position: number;
  entries: AdminFaqEntryDto[];
}
