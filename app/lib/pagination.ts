/**
 * Page parameters of every list: 10 per page by default (docs/product/limits.md#pagination), at most 50
 * (docs/product/limits.md#pagination), pages numbered from 1.
 */
export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 50;

export interface PageParams {
  page: number;
  perPage: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  /** How many items the list holds, or COUNT_CAP when `more` says the count stopped there. */
  total: number;
  totalPages: number;
  /** True when the list holds more than `total` items: long public lists count at most COUNT_CAP. */
  more?: boolean;
}

/**
 * The most rows a long public list counts (docs/product/limits.md#pagination): counting every one
 * of a million posts costs ≈0.5 s a page on PostgreSQL, counting up to 10 000 a few ms. Beyond it
 * the page says «больше 10 000» and offers the first 1 000 pages of 10.
 */
export const COUNT_CAP = 10_000;

/**
 * Reads `page` and `perPage` from a query string. Missing or malformed values fall back
 * to the defaults; out-of-range values are clamped, so a user's typo never becomes a 500.
 */
export function parsePageParams(search: URLSearchParams, defaults: Partial<PageParams> = {}): PageParams {
  const page = toInt(search.get("page"), defaults.page ?? 1);
  const perPage = toInt(search.get("perPage"), defaults.perPage ?? DEFAULT_PER_PAGE);
  return { page: Math.max(1, Math.min(page, 100_000)), perPage: Math.max(1, Math.min(perPage, MAX_PER_PAGE)) };
}

function toInt(value: string | null, fallback: number): number {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return fallback;
  return Number.parseInt(value, 10);
}

export function toPage<T>(items: T[], total: number, params: PageParams): Page<T> {
  return { items, page: params.page, perPage: params.perPage, total, totalPages: Math.max(1, Math.ceil(total / params.perPage)) };
}

/**
 * A page of a list counted up to COUNT_CAP: `counted` is a count of at most COUNT_CAP + 1 rows
 * (a `limit COUNT_CAP + 1` subquery); more than COUNT_CAP becomes `total: COUNT_CAP, more: true`.
 */
export function toCappedPage<T>(items: T[], counted: number, params: PageParams): Page<T> {
  if (counted <= COUNT_CAP) return toPage(items, counted, params);
  return { ...toPage(items, COUNT_CAP, params), more: true };
}
