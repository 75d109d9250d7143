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

/** Inline style overriding the theme variables, or undefined for the default theme. */
export function themeStyle(theme: ThemeColors | null | undefined): CSSProperties | undefined {
  if (!theme) return undefined;
  return {
    "--primary": rgbToHslComponents(theme.primary),
    "--secondary": rgbToHslComponents(theme.secondary),
    "--background": rgbToHslComponents(theme.background),
  } as CSSProperties;
}

/** The local storage key of the saved theme (docs/product/interface.md#theme). */
export const THEME_STORAGE_KEY = "userTheme";

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
