/**
 * A member's colour theme (docs/product/interface.md#theme): RGB triples turned into the hue/saturation/
 * lightness components the CSS variables --primary, --secondary and --background expect.
 */
import type { CSSProperties } from "react";
import type { ThemeColors } from "~/db/schema";

/** "h s% l%" for an RGB triple of 0..255 channels. */
export function rgbToHslComponents([r, g, b]: readonly [number, number, number]): string {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === rn) h = (gn - bn) / d + (gn < bn ? 6 : 0);
    else if (max === gn) h = (bn - rn) / d + 2;
    else h = (rn - gn) / d + 4;
    h *= 60;
  }
  return `${Math.round(h)} ${Math.round(s * 100)}% ${Math.round(l * 100)}%`;
}

type Rgb = readonly [number, number, number];

/** The WCAG 2 relative luminance of an RGB triple (0..255 channels), 0 (black) … 1 (white). */
export function relativeLuminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG 2 contrast ratio of two colours, 1 … 21 (order does not matter). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The WCAG AA minimum for body text (docs/product/interface.md#theme). */
export const MIN_TEXT_CONTRAST = 4.5;

/** The site's dark and light text colours (app/app.css: --foreground of light and dark). */
const DARK_TEXT: Rgb = [24, 21, 40];
const LIGHT_TEXT: Rgb = [243, 242, 250];
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
/** The site's destructive and success colours (app/app.css, light scheme), which a theme adapts. */
const DESTRUCTIVE: Rgb = [204, 31, 31];
const SUCCESS: Rgb = [23, 120, 75];
/**
 * What the chosen colours aim for: a little above 4.5:1, so that the HSL variables, rounded to
 * whole degrees and percents, still give at least 4.5:1 in the browser.
 */
const TARGET_CONTRAST = MIN_TEXT_CONTRAST + 0.1;

/** `a` moved towards `b` by t (0 … 1), channels rounded. */
function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as unknown as Rgb;
}

/**
 * The text colour for a background (a button's fill, a page): the site's near-black or near-white
 * text, whichever contrasts more; if that falls short of 4.5:1 (with the rounding margin), pure
 * black or white, whichever contrasts more — one of them always reaches 4.58:1.
 */
export function readableTextOn(background: Rgb): Rgb {
  const best = contrastRatio(DARK_TEXT, background) >= contrastRatio(LIGHT_TEXT, background) ? DARK_TEXT : LIGHT_TEXT;
  if (contrastRatio(best, background) >= TARGET_CONTRAST) return best;
  return contrastRatio(BLACK, background) >= contrastRatio(WHITE, background) ? BLACK : WHITE;
}

/**
 * A signal colour (destructive, success) that reads as text on every one of `surfaces`: the
 * site's own when it keeps 4.6:1 on them, else the nearest shade towards black or white (in 5 %
 * steps) that does; failing both, black or white, whichever contrasts more.
 */
export function readableSignal(colour: Rgb, surfaces: readonly Rgb[]): Rgb {
  const worst = (candidate: Rgb) => Math.min(...surfaces.map((surface) => contrastRatio(candidate, surface)));
  if (worst(colour) >= TARGET_CONTRAST) return colour;
  for (let step = 1; step <= 20; step++) {
    for (const end of [BLACK, WHITE]) {
      const candidate = mix(colour, end, step / 20);
      if (worst(candidate) >= TARGET_CONTRAST) return candidate;
    }
  }
  return worst(BLACK) >= worst(WHITE) ? BLACK : WHITE;
}

/**
 * Secondary ("muted") text for a set of surfaces: of the site's dark and light text and pure black
 * and white, the one whose worst contrast over the surfaces is best, faded towards the first
 * surface as far as it keeps 4.6:1 on every one (a little above 4.5 for the rounding of the
 * HSL variables).
 */
function mutedTextOn(surfaces: readonly Rgb[]): Rgb | null {
  const worst = (colour: Rgb) => Math.min(...surfaces.map((surface) => contrastRatio(colour, surface)));
  const text = [DARK_TEXT, LIGHT_TEXT, [0, 0, 0] as Rgb, WHITE].reduce((best, candidate) => (worst(candidate) > worst(best) ? candidate : best));
  for (let t = 0.45; t > 0; t -= 0.05) {
    const candidate = mix(text, surfaces[0]!, t);
    if (worst(candidate) >= MIN_TEXT_CONTRAST + 0.1) return candidate;
  }
  return worst(text) >= MIN_TEXT_CONTRAST + 0.1 ? text : null;
}

/**
 * The colour variables of a member's theme (docs/product/interface.md#theme), as RGB triples by
 * variable name: the three chosen colours, and every surface and text colour derived from them
 * so that all text keeps WCAG AA contrast (4.5:1) — light text on a dark background, dark on a
 * light one — whatever the light or dark scheme would otherwise set.
 */
export function themeColors(theme: ThemeColors): Record<string, Rgb> {
  const background = theme.background;
  const dark = relativeLuminance(background) < 0.18;
  const text = readableTextOn(background);
  // Cards stand slightly apart from the page: lighter on a dark page, towards white on a light one.
  let card = dark ? mix(background, WHITE, 0.06) : mix(background, WHITE, 0.7);
  let muted = mix(background, text, 0.06);
  let mutedText = mutedTextOn([background, card, muted]);
  if (!mutedText) {
    // A mid-tone page leaves no room for lighter or darker surfaces: cards and muted areas take
    // the page's own colour (borders still set them apart), and one text colour serves them all.
    card = background;
    muted = background;
    mutedText = mutedTextOn([background]) ?? text;
  }
  const accent = mix(background, theme.primary, 0.15);
  // Errors and confirmations keep their hue but read on this page, and the text on their fills is
  // chosen by contrast too (docs/product/interface.md#theme).
  const destructive = readableSignal(DESTRUCTIVE, [background, card, muted]);
  const success = readableSignal(SUCCESS, [background, card, muted]);
  return {
    "--primary": theme.primary,
    "--primary-foreground": readableTextOn(theme.primary),
    "--secondary": theme.secondary,
    "--secondary-foreground": readableTextOn(theme.secondary),
    "--background": background,
    "--foreground": text,
    "--card": card,
    "--card-foreground": readableTextOn(card),
    "--popover": card,
    "--popover-foreground": readableTextOn(card),
    "--muted": muted,
    "--muted-foreground": mutedText,
    "--accent": accent,
    "--accent-foreground": readableTextOn(accent),
    "--destructive": destructive,
    "--destructive-foreground": readableTextOn(destructive),
    "--success": success,
    "--success-foreground": readableTextOn(success),
    "--border": mix(background, text, 0.14),
    "--input": mix(background, text, 0.2),
    "--ring": theme.primary,
  };
}

/** Inline style overriding the theme variables, or undefined for the default theme. */
export function themeStyle(theme: ThemeColors | null | undefined): CSSProperties | undefined {
  if (!theme) return undefined;
  return Object.fromEntries(Object.entries(themeColors(theme)).map(([name, rgb]) => [name, rgbToHslComponents(rgb)])) as CSSProperties;
}

const isChannel = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;
const isTriple = (value: unknown): value is [number, number, number] => Array.isArray(value) && value.length === 3 && value.every(isChannel);

/**
 * A theme saved under `userTheme` (JSON of ThemeColors), or null when there is none or it does
 * not parse as three RGB triples: an unparseable saved theme is ignored (docs/product/interface.md#theme).
 */
export function parseSavedTheme(raw: string | null | undefined): ThemeColors | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof ThemeColors, unknown>> | null;
    if (!value || typeof value !== "object") return null;
    const { primary, secondary, background } = value;
    return isTriple(primary) && isTriple(secondary) && isTriple(background) ? { primary, secondary, background } : null;
  } catch {
    return null;
  }
}
