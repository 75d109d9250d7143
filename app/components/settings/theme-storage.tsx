/**
 * The local copy of the member's colour theme (docs/product/interface.md#theme): with a custom theme its three
 * colours are saved under `userTheme`; without one (or signed out) the saved theme is removed.
 * The root applies the theme itself (style variables on <html>, also without JavaScript), so the
 * saved copy only matters when the root's data is missing (the error page of a failed root
 * loader): then a saved theme that parses is applied, an unparseable one ignored.
 */
import { useEffect } from "react";
import type { ThemeColors } from "~/db/schema";
import { parseSavedTheme, THEME_STORAGE_KEY, themeStyle } from "~/lib/theme";

export function ThemeStorage({ theme, known }: { theme: ThemeColors | null | undefined; known: boolean }) {
  const serialized = theme ? JSON.stringify(theme) : null;
  useEffect(() => {
    try {
      if (!known) {
        const saved = themeStyle(parseSavedTheme(window.localStorage.getItem(THEME_STORAGE_KEY)));
        for (const [name, value] of Object.entries(saved ?? {})) document.documentElement.style.setProperty(name, String(value));
      } else if (serialized) {
        window.localStorage.setItem(THEME_STORAGE_KEY, serialized);
      } else {
        window.localStorage.removeItem(THEME_STORAGE_KEY);
      }
    } catch {
      // Storage refused (private mode, a webview without it): the root's style still applies the theme.
    }
  }, [known, serialized]);
  return null;
}
