/**
 * Anchors of FAQ questions and sections (issue 11 "every question has an anchor"): readable
 * Latin slugs made from the Russian text, e.g. «Как вывести депозит?» → kak-vyvesti-depozit.
 * Pure. Uniqueness is the database's (faq_entries_anchor_key): see store.server.ts.
 */

const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "j",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "h",
  ц: "c",
  ч: "ch",
  ш: "sh",
  щ: "sch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
};

/** The longest anchor (the database allows 80; room is left for a «-2» suffix). */
export const MAX_ANCHOR_LENGTH = 60;

/** A slug of `text`: transliterated, lower-case a-z0-9 words joined by «-», at most 60 characters; "" when nothing is left. */
export function slugify(text: string): string {
  const latin = [...text.toLowerCase()].map((char) => CYRILLIC[char] ?? char).join("");
  const slug = latin
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= MAX_ANCHOR_LENGTH) return slug;
  const cut = slug.slice(0, MAX_ANCHOR_LENGTH);
  const lastDash = cut.lastIndexOf("-");
  return (lastDash > 20 ? cut.slice(0, lastDash) : cut).replace(/-+$/, "");
}

/** True for an anchor the database accepts: a-z, 0-9 and «-», starting with a letter or digit, up to 80 characters. */
export function isValidAnchor(anchor: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,79}$/.test(anchor);
}
