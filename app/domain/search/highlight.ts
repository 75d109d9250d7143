/**
 * Turning PostgreSQL's ts_headline output into safe HTML.
 *
 * ts_headline returns the document's raw text (it may hold `<img onerror=…>` or any other
 * markup a member typed) with the start and stop markers we asked for around each match.
 * We ask for two control characters no member can type into a form (STX and ETX) and strip
 * them from the source before highlighting, escape every other character, and only then
 * turn the markers into <mark> elements, always balanced.
 */

/** Start-of-match marker passed to ts_headline as StartSel (U+0002, STX). */
export const MATCH_START = "\u0002";
/** End-of-match marker passed to ts_headline as StopSel (U+0003, ETX). */
export const MATCH_STOP = "\u0003";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes the five HTML-significant characters, so any text is safe inside an element. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * HTML for a ts_headline result: everything escaped, matches wrapped in <mark>. Stray or
 * unbalanced markers never leave an open element behind.
 */
export function highlightToHtml(marked: string): string {
  let html = "";
  let open = false;
  // Other control characters are invisible at best; drop them (keep tab and newline).
  const clean = marked.replace(/[\u0000\u0001\u0004-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
  for (const part of clean.split(/([\u0002\u0003])/)) {
    if (part === MATCH_START) {
      if (!open) html += "<mark>";
      open = true;
    } else if (part === MATCH_STOP) {
      if (open) html += "</mark>";
      open = false;
    } else {
      html += escapeHtml(part);
    }
  }
  if (open) html += "</mark>";
  return html.replace(/<mark><\/mark>/g, "");
}

/**
 * Makes a fragment of a Markdown body read like prose: drops heading hashes, emphasis
 * marks, code ticks, list bullets and quote marks, keeps link and image text without
 * their addresses, and folds whitespace. Markers survive, so highlighting still works.
 */
export function stripMarkdownFragment(fragment: string): string {
  return fragment
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/(^|\n)\s{0,3}(#{1,6}|>+|[-*+]|\d{1,3}[.)])\s+/g, "$1")
    .replace(/\*{1,3}|~~|`+|(^|[\s(])__?|__?(?=[\s).,!?:;]|$)/g, (match, before: string | undefined) => before ?? "")
    .replace(/\s+/g, " ")
    .trim();
}
