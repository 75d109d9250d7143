/**
 * The local copy of the member's colour theme (docs/product/interface.md#theme): with a custom theme its three
 * colours are saved under `userTheme`; without one (or signed out) the saved theme is removed.
 * The root applies the theme itself (style variables on <html>, also without JavaScript), so the
 * saved copy only matters when the root's data is missing (the error page of a failed root
 * loader): then a saved theme that parses is applied, an unparseable one ignored.
 */
import { useEffect } from "react";
import type { ThemeColors } from "~/db/schema";

/** The local storage key of the saved theme (docs/product/interface.md#theme). */
export const THEME_STORAGE_KEY = "userTheme";

export function ThemeStorage({ theme, known }: { theme: ThemeColors | null | undefined; known: boolean }) {
  const serialized = theme ? JSON.stringify(theme) : null;
  useEffect(() => {
    try {
      if (!known) {
        const raw = window.localStorage.getItem(THEME_STORAGE_KEY);
        // Only the error page needs the theme's code: other pages never load it (decision 0040).
        if (raw) {
          void import("~/lib/theme").then(({ parseSavedTheme, themeStyle }) => {
            const saved = themeStyle(parseSavedTheme(raw));
            for (const [name, value] of Object.entries(saved ?? {})) document.documentElement.style.setProperty(name, String(value));
          });
        }
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
