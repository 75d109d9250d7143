/**
 * The FAQ filter (issue 11 "a filter box on the page"), one rule for the server (`?q=` without
 * JavaScript) and the browser (filtering as one types): every word of the query must occur in
 * the question or the answer, ignoring case and ё/е. Pure.
 */

/** Lower case, ё → е, every run of non-letters and non-digits one space, trimmed. */
export function normalizeForFilter(text: string): string {
  return text
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The query's words, normalised (none for an empty query: everything matches). */
export function filterWords(query: string): string[] {
  const normalized = normalizeForFilter(query);
  return normalized === "" ? [] : normalized.split(" ");
}

/** True when every word of `words` occurs in `filterText` (already normalised). */
export function matchesFilter(filterText: string, words: readonly string[]): boolean {
  return words.every((word) => filterText.includes(word));
}
