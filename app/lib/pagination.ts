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
  total: number;
  totalPages: number;
}

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
