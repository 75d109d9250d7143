/**
 * Conflicting Tailwind utilities on one element (decision 0045). The site joins class names
 * without merging them (app/lib/utils.ts `cn`), so an element carrying two utilities that set the
 * same thing — `p-1 p-0`, `text-muted-foreground text-primary`, `size-5 size-4` — would look as
 * the stylesheet's order decides, not as the code reads. tailwind-merge (a development dependency)
 * knows Tailwind's groups: an attribute it would change has such a pair. The components layer's
 * own classes (`.btn`, `.input`, `.card`…) are not utilities, so a caller's utilities may override
 * them.
 */
import { twMerge } from "tailwind-merge";

/**
 * The class attributes among `classes` that carry conflicting or repeated utilities, each with the
 * utilities tailwind-merge would drop: `[]` when there is none.
 */
export function classConflicts(classes: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const value of classes) {
    const tokens = value.split(/\s+/).filter(Boolean);
    const kept = twMerge(tokens.join(" ")).split(" ");
    if (kept.length === tokens.length) continue;
    const dropped = tokens.filter((token, index) => tokens.indexOf(token) !== index || !kept.includes(token));
    found.add(`"${tokens.join(" ")}" (drops ${dropped.join(" ")})`);
  }
  return [...found];
}
