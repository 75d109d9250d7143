/**
 * The icons served once as an SVG sprite (/icons.svg) and drawn with `<use>` (issue 12, page
 * weight): the ones that repeat on every comment, post card and member name, and those of what every
 * page draws first (the header, the phone's bottom bar, the colour-scheme toggle, the bell, pagination,
 * the scam stamp, the error page: lucide-react's code then stays out of every page's first scripts,
 * decision 0045). An inline lucide
 * icon costs about 400 bytes of HTML; a `<use>` of the sprite about 90, and the sprite itself
 * is fetched once and cached (docs/product/interface.md#icons).
 *
 * Names are lucide's kebab-case names. The sprite's URL carries a version made of the names,
 * so adding an icon makes browsers fetch the new sprite.
 */
export const SPRITE_ICON_NAMES = [
  "archive-restore",
  "badge-check",
  "bell",
  "bookmark",
  "check",
  "check-check",
  "chevron-left",
  "chevron-right",
  "chevrons-left",
  "chevrons-right",
  "corner-down-right",
  "corner-up-left",
  "ellipsis",
  "eye",
  "file-text",
  "flag",
  "heart",
  "heart-crack",
  "house",
  "log-in",
  "log-out",
  "message-square",
  "messages-square",
  "monitor",
  "moon",
  "pencil",
  "pin",
  "pin-off",
  "reply",
  "search",
  "shield-alert",
  "shield-check",
  "shield-x",
  "square-pen",
  "sun",
  "trash-2",
  "triangle-alert",
  "user",
] as const;

/** One of the sprite's icons, by lucide's kebab-case name. */
export type SpriteIconName = (typeof SPRITE_ICON_NAMES)[number];

/** Bumped when the lucide package changes the drawings of icons already in the sprite. */
const SPRITE_REVISION = 1;

/** FNV-1a of a string, as 8 hex digits: a short, stable cache key. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** The sprite's URL, versioned by its content's names: "/icons.svg?v=1a2b3c4d". */
export const SPRITE_URL = `/icons.svg?v=${fnv1a(`${SPRITE_REVISION}:${SPRITE_ICON_NAMES.join(",")}`)}`;
