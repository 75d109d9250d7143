/**
 * Shared types and text helpers for the seed content pools.
 * All user-facing strings produced here are Russian.
 */
import type { Rng } from "../prng.ts";

/** A piece of text: either fixed or produced from the generator kit. */
export type Text = string | ((k: Kit) => string);

/** What a post topic returns: a title and the topic-specific Markdown blocks. */
export interface Draft {
  title: string;
  blocks: string[];
  /** Extra filler paragraphs that only fit this kind of post (e.g. seller-only remarks). */
  fillers?: readonly Text[];
  /** Replaces the category closings when they would not fit (e.g. «жду предложений» in a buy post). */
  closings?: readonly Text[];
}

export type PostTopic = (k: Kit) => Draft;

export interface ArticleSection {
  heading: string;
  body: Text;
}

export interface ArticleTopic {
  /** A function only when the title depends on the author's gender. */
  title: Text;
  intro: Text;
  sections: ArticleSection[];
}

export interface CategoryPool {
  /** Short post generators; each call yields a fresh variation. */
  topics: PostTopic[];
  /** Generic category paragraphs that fit any post of the category; appended to vary and lengthen posts. */
  fillers: Text[];
  /** Final lines of posts (contacts, questions to readers, ...). */
  closings: Text[];
  /** Long-form articles; each is used at most once. */
  articles: ArticleTopic[];
  /** Generic sections that may be appended to short articles. */
  extraSections: ArticleSection[];
  /** Final paragraphs of articles. */
  articleOutros: Text[];
}

export interface City {
  /** Nominative: «Москва». */
  name: string;
  /** Prepositional with preposition: «в Москве». */
  inCity: string;
  /** Direction: «в Москву». */
  toCity: string;
}

export const cities: readonly City[] = [
  { name: "Москва", inCity: "в Москве", toCity: "в Москву" },
  { name: "Санкт-Петербург", inCity: "в Санкт-Петербурге", toCity: "в Санкт-Петербург" },
  { name: "Казань", inCity: "в Казани", toCity: "в Казань" },
  { name: "Екатеринбург", inCity: "в Екатеринбурге", toCity: "в Екатеринбург" },
  { name: "Новосибирск", inCity: "в Новосибирске", toCity: "в Новосибирск" },
  { name: "Нижний Новгород", inCity: "в Нижнем Новгороде", toCity: "в Нижний Новгород" },
  { name: "Краснодар", inCity: "в Краснодаре", toCity: "в Краснодар" },
  { name: "Самара", inCity: "в Самаре", toCity: "в Самару" },
  { name: "Ростов-на-Дону", inCity: "в Ростове-на-Дону", toCity: "в Ростов-на-Дону" },
  { name: "Воронеж", inCity: "в Воронеже", toCity: "в Воронеж" },
  { name: "Пермь", inCity: "в Перми", toCity: "в Пермь" },
  { name: "Уфа", inCity: "в Уфе", toCity: "в Уфу" },
  { name: "Иркутск", inCity: "в Иркутске", toCity: "в Иркутск" },
  { name: "Красноярск", inCity: "в Красноярске", toCity: "в Красноярск" },
];

export interface Kit {
  rng: Rng;
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  /** Random rounded price formatted as «2 500 ₽». */
  rub(min: number, max: number, step?: number): string;
  /** Integer with space-separated thousands: «12 500». */
  num(n: number): string;
  city(): City;
  /** Harmless demo URL: https://example.com/<path>. */
  link(path: string): string;
  /** Resolve a Text into a string. */
  text(t: Text): string;
  /** Whether the author of the current text is female (for verb/adjective agreement). */
  female: boolean;
  /** Gendered form: g("продал", "продала"). */
  g(masculine: string, feminine: string): string;
  /** How long the author has been on the forum, e.g. «почти год» (fits «на форуме …»). */
  tenure: string;
}

export interface Author {
  female: boolean;
  joinedDaysAgo: number;
}

export function tenurePhrase(days: number): string {
  if (days < 30) return "меньше месяца";
  if (days < 75) return "пару месяцев";
  if (days < 150) return "несколько месяцев";
  if (days < 270) return "около полугода";
  if (days < 330) return "почти год";
  if (days < 540) return "больше года";
  if (days < 700) return "почти два года";
  return "больше двух лет";
}

export function formatNumber(n: number): string {
  const grouped = String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  return (n < 0 ? "−" : "") + grouped;
}

/** Russian plural form: plural(5, "игра", "игры", "игр") === "игр". */
export function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}

export function ul(items: readonly string[]): string {
  return items.map((i) => `- ${i}`).join("\n");
}

export function ol(items: readonly string[]): string {
  return items.map((i, idx) => `${idx + 1}. ${i}`).join("\n");
}

export function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
}

export function makeKit(rng: Rng, author: Author = { female: false, joinedDaysAgo: 365 }): Kit {
  const kit: Kit = {
    rng,
    pick: (items) => rng.pick(items),
    int: (min, max) => rng.int(min, max),
    chance: (p) => rng.chance(p),
    rub: (min, max, step = 100) => {
      const value = Math.round(rng.int(min, max) / step) * step;
      return `${formatNumber(Math.max(step, value))} ₽`;
    },
    num: formatNumber,
    city: () => rng.pick(cities),
    link: (path) => `https://example.com/${path.replace(/^\/+/, "")}`,
    text: (t) => (typeof t === "string" ? t : t(kit)),
    female: author.female,
    g: (masculine, feminine) => (author.female ? feminine : masculine),
    tenure: tenurePhrase(author.joinedDaysAgo),
  };
  return kit;
}

/** Capitalise the first letter. */
export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
