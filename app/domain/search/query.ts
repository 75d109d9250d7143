/**
 * What /search reads from its query string, and the category backgrounds of docs/product/content.md#category-backgrounds.
 * Pure functions, shared by the page, the API and the tests.
 */
import { parseCategoryParam } from "~/domain/posts/categories";
import { parsePageParams, type PageParams } from "~/lib/pagination";

/** Longest query we search for, in characters; longer input is cut, never refused. */
export const MAX_QUERY_LENGTH = 200;

export interface SearchParams extends PageParams {
  /** The query as typed, trimmed and cleaned; "" when there is none. */
  q: string;
  /** 1..9, or undefined for every category (docs/product/content.md#search: the category query value). */
  categoryId: number | undefined;
}

/**
 * Cleans a typed query: drops NUL and other control characters (PostgreSQL text cannot
 * hold NUL), folds whitespace, trims and cuts to MAX_QUERY_LENGTH characters.
 */
export function normalizeQuery(raw: string | null | undefined): string {
  if (!raw) return "";
  const folded = raw
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(folded).slice(0, MAX_QUERY_LENGTH).join("").trim();
}

/** Latin letters that look like Cyrillic ones, mapped to the Cyrillic letter they imitate. */
const LOOKALIKES: Record<string, string> = {
  a: "а",
  c: "с",
  e: "е",
  o: "о",
  p: "р",
  x: "х",
  y: "у",
  k: "к",
  m: "м",
  t: "т",
  h: "н",
  b: "в",
  A: "А",
  B: "В",
  C: "С",
  E: "Е",
  H: "Н",
  K: "К",
  M: "М",
  O: "О",
  P: "Р",
  T: "Т",
  X: "Х",
  Y: "У",
};
const CYRILLIC = /[А-Яа-яЁё]/;
const LATIN_LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "g");

/**
 * Turns Latin look-alike letters inside Cyrillic words into the Cyrillic letters they imitate
 * («Прoдам» with a Latin o → «Продам»), so such a query still finds the word
 * (docs/product/content.md#search). Words without Cyrillic letters («USDT», «Steam») stay as typed.
 */
export function foldLookalikes(q: string): string {
  return q.replace(/[\p{L}\p{N}]+/gu, (word) => (CYRILLIC.test(word) ? word.replace(LATIN_LOOKALIKE, (letter) => LOOKALIKES[letter] ?? letter) : word));
}

/** The shortest half-typed last word searched for as a prefix, in characters. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * Splits a normalised query into the websearch part and a last word that is also matched as the
 * beginning of a word («велосип» finds «велосипед»; docs/product/content.md#search). The last word
 * counts only when it is a plain word of MIN_PREFIX_LENGTH letters or more: not in quotes, not
 * negated, not after «or»; otherwise `prefix` is null and `rest` is the whole query.
 */
export function splitPrefix(q: string): { rest: string; prefix: string | null } {
  const match = /^(.*?)(?:^|\s)([\p{L}\p{N}]+)$/u.exec(q);
  const word = match?.[2];
  if (!match || !word || Array.from(word).length < MIN_PREFIX_LENGTH) return { rest: q, prefix: null };
  const rest = match[1]!.trim();
  if ((rest.match(/"/g)?.length ?? 0) % 2 === 1 || /(^|\s)or$/i.test(rest)) return { rest: q, prefix: null };
  return { rest, prefix: word.toLowerCase() };
}

/** Reads `q`, `category`, `page` and `perPage` from /search's query string; never throws. */
export function parseSearchParams(search: URLSearchParams): SearchParams {
  return {
    q: normalizeQuery(search.get("q")),
    categoryId: parseCategoryParam(search.get("category")),
    ...parsePageParams(search),
  };
}

export type SearchBackground = "torgovlia" | "games" | "crypta";

const BACKGROUNDS: Record<number, SearchBackground> = { 1: "torgovlia", 5: "torgovlia", 2: "games", 3: "games", 4: "crypta", 9: "crypta" };

/**
 * The search header's background for a category (docs/product/content.md#category-backgrounds): 1 and 5 torgovlia, 2 and 3
 * games, 4 and 9 crypta; any other category (or none) leaves the background unchanged (null).
 */
export function searchBackgroundFor(categoryId: number | undefined): SearchBackground | null {
  return categoryId === undefined ? null : (BACKGROUNDS[categoryId] ?? null);
}

/** The image of a background, served from public/images/search/. */
export function searchBackgroundUrl(background: SearchBackground): string {
  return `/images/search/${background}.svg`;
}

/**
 * True when a query could be a username (docs/product/accounts.md#members: Latin/Cyrillic/digits/_),
 * optionally written as @name: then /search also shows matching people.
 */
export function looksLikeUsername(q: string): boolean {
  return /^@?[A-Za-z0-9_А-Яа-яЁё]{2,32}$/.test(q);
}
