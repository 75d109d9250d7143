/**
 * The nine fixed categories (docs/product/content.md#categories); ids match drizzle/0001_categories.sql and
 * the search backgrounds of docs/product/content.md#category-backgrounds.
 */
export const CATEGORIES = [
  { id: 1, slug: "torgovlia", name: "Торговля" },
  { id: 2, slug: "games", name: "Игры" },
  { id: 3, slug: "game-accounts", name: "Игровые аккаунты" },
  { id: 4, slug: "crypto", name: "Криптовалюта" },
  { id: 5, slug: "services", name: "Услуги" },
  { id: 6, slug: "news", name: "Новости" },
  { id: 7, slug: "discussions", name: "Обсуждения" },
  { id: 8, slug: "offtopic", name: "Оффтоп" },
  { id: 9, slug: "mining-defi", name: "Майнинг и DeFi" },
] as const;

export type Category = (typeof CATEGORIES)[number];

export function findCategory(id: number): Category | undefined {
  return CATEGORIES.find((category) => category.id === id);
}

/** Reads a category id from a query value; anything but 1..9 means "all categories". */
export function parseCategoryParam(value: string | null): number | undefined {
  if (value === null || !/^\d$/.test(value)) return undefined;
  return findCategory(Number(value))?.id;
}
