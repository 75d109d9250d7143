/**
 * The reader's colour scheme (docs/product/interface.md#dark-mode): «system» follows
 * `prefers-color-scheme`, «light» and «dark» are fixed. The choice lives in the `color-scheme`
 * cookie so the server puts the right class on <html> (no flash of the other scheme).
 */

/** The three choices of the header's toggle. */
export const COLOR_SCHEMES = ["system", "light", "dark"] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/** The cookie's name; its value is one of COLOR_SCHEMES. */
export const COLOR_SCHEME_COOKIE = "color-scheme";

/** A year, in seconds: how long the choice is remembered. */
export const COLOR_SCHEME_MAX_AGE = 60 * 60 * 24 * 365;

/** Russian labels of the choices, for the toggle. */
export const COLOR_SCHEME_LABELS: Record<ColorScheme, string> = { system: "Как в системе", light: "Светлая тема", dark: "Тёмная тема" };

/** A value as a ColorScheme, or "system" when it is missing or unknown. */
export function parseColorScheme(value: unknown): ColorScheme {
  return COLOR_SCHEMES.includes(value as ColorScheme) ? (value as ColorScheme) : "system";
}

/** The scheme stored in a Cookie header ("system" without one). */
export function colorSchemeFromCookie(cookieHeader: string | null | undefined): ColorScheme {
  const match = new RegExp(`(?:^|;\\s*)${COLOR_SCHEME_COOKIE}=([^;]*)`).exec(cookieHeader ?? "");
  return parseColorScheme(match?.[1]);
}

/** The Set-Cookie header value storing a scheme for a year on the whole site. */
export function colorSchemeCookie(scheme: ColorScheme, secure: boolean): string {
  return `${COLOR_SCHEME_COOKIE}=${scheme}; Path=/; Max-Age=${COLOR_SCHEME_MAX_AGE}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * The class of <html> for a scheme: "dark" or "light" pin the scheme; "system" leaves none, so the
 * `prefers-color-scheme` media query of app/app.css decides.
 */
export function colorSchemeClass(scheme: ColorScheme): string | undefined {
  return scheme === "system" ? undefined : scheme;
}

/**
 * A local path to go back to after the toggle: `redirectTo` when it is a same-site path ("/…",
 * never "//…"), else the Referer's path when it is on this site, else "/".
 */
export function backTo(redirectTo: unknown, referer: string | null, origin: string): string {
  const isLocal = (path: unknown): path is string => typeof path === "string" && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
  if (isLocal(redirectTo)) return redirectTo;
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === origin) return `${url.pathname}${url.search}${url.hash}`;
    } catch {
      // Not a URL: fall through to the home page.
    }
  }
  return "/";
}
