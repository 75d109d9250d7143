/**
 * The blacklist search's text (docs/product/claims.md#blacklist-search), pure so the page's form
 * and the server agree on its limit.
 */

/** Characters of a blacklist search that count; the rest is ignored. */
export const BLACKLIST_QUERY_MAX = 100;

/**
 * The blacklist search as typed: whitespace folded and trimmed, a leading «@» dropped, at most
 * BLACKLIST_QUERY_MAX characters; "" for no search.
 */
export function normalizeBlacklistQuery(raw: string | null | undefined): string {
  return (raw ?? "").replace(/\s+/g, " ").trim().replace(/^@+/, "").slice(0, BLACKLIST_QUERY_MAX).trim();
}
