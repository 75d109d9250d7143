/**
 * The browser side of the Telegram Mini App (docs/product/accounts.md#telegram-mini-app; issue 6): the parts of
 * Telegram's `window.Telegram.WebApp` this site uses, and pure helpers. No server imports.
 */

/** Telegram's Mini App script; loaded only inside Telegram (see isTelegramLaunch) and on /debug/tg. */
export const TELEGRAM_SCRIPT_URL = "https://telegram.org/js/telegram-web-app.js";
/** Session storage flag: initData was posted and accepted in this browser session (docs/product/limits.md#account-limits). */
export const TELEGRAM_AUTH_FLAG = "telegram_auth_sent";
/** initData polling after the script loads: every 100 ms, up to 50 times (docs/product/limits.md#account-limits). */
export const INIT_DATA_POLL = { intervalMs: 100, attempts: 50 } as const;
/** Where the Mini App posts initData (docs/product/accounts.md#telegram-mini-app). */
export const TELEGRAM_AUTH_PATH = "/api/auth/telegram";

/** Telegram's theme parameters: colours as "#rrggbb". */
export interface TelegramThemeParams {
  bg_color?: string;
  text_color?: string;
  hint_color?: string;
  link_color?: string;
  button_color?: string;
  button_text_color?: string;
  secondary_bg_color?: string;
  [key: string]: string | undefined;
}

/** The subset of Telegram.WebApp the site uses. */
export interface TelegramWebApp {
  initData: string;
  version?: string;
  platform?: string;
  colorScheme?: "light" | "dark";
  themeParams?: TelegramThemeParams;
  ready?: () => void;
  expand?: () => void;
  BackButton?: { show(): void; hide(): void; onClick(callback: () => void): void; offClick(callback: () => void): void };
  onEvent?: (event: string, callback: () => void) => void;
  offEvent?: (event: string, callback: () => void) => void;
}

declare global {
  interface Window {
    Telegram?: { WebApp?: TelegramWebApp };
    TelegramWebviewProxy?: unknown;
  }
}

/** Telegram.WebApp when the script (or a mock) provided it. */
export function telegramWebApp(): TelegramWebApp | undefined {
  return typeof window === "undefined" ? undefined : window.Telegram?.WebApp;
}

/**
 * True when the page runs as a Telegram Mini App: Telegram's launch parameters in the URL
 * fragment (tgWebAppData / tgWebAppPlatform), the ones its script kept in session storage on a
 * reload, its mobile webview bridge, or a WebApp object already present.
 */
export function isTelegramLaunch(): boolean {
  if (typeof window === "undefined") return false;
  if (/[#&](tgWebAppData|tgWebAppPlatform)=/.test(window.location.hash)) return true;
  if (window.TelegramWebviewProxy !== undefined || window.Telegram?.WebApp) return true;
  try {
    return window.sessionStorage.getItem("__telegram__initParams") !== null;
  } catch {
    return false;
  }
}

/** The attribute on <html> inside the Mini App: the compact header keys on it (app/app.css, `tg:`). */
export const TELEGRAM_MARK = "data-telegram";

/**
 * The same test as isTelegramLaunch, inlined in the document's <head> so the attribute is on
 * <html> before the first paint (the compact header appears without a jump). Keep the two alike.
 */
export const TELEGRAM_MARK_SCRIPT = `try{if(/[#&](tgWebAppData|tgWebAppPlatform)=/.test(location.hash)||window.TelegramWebviewProxy!==undefined||(window.Telegram&&window.Telegram.WebApp)||sessionStorage.getItem("__telegram__initParams")!==null)document.documentElement.setAttribute("${TELEGRAM_MARK}","")}catch(e){}`;

/**
 * Adds Telegram's script once; resolves true when it loaded, false when it failed (blocked,
 * offline). Pages keep working without it.
 */
export function loadTelegramScript(): Promise<boolean> {
  scriptLoad ??= new Promise<boolean>((resolve) => {
    const script = document.createElement("script");
    script.src = TELEGRAM_SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve(true);
    script.onerror = () => resolve(false);
    document.head.appendChild(script);
  });
  return scriptLoad;
}
let scriptLoad: Promise<boolean> | undefined;

/**
 * Polls `read` every `intervalMs` up to `attempts` times (docs/product/accounts.md#telegram-mini-app: 100 ms, 50 times) until
 * it gives a non-empty string; resolves with it, or null when it never came.
 */
export async function waitForInitData(
  read: () => string | undefined,
  { intervalMs, attempts }: { intervalMs: number; attempts: number } = INIT_DATA_POLL,
): Promise<string | null> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return null;
}

/**
 * Development mock initData (docs/product/accounts.md#telegram-mini-app): URL-decoded up to 2 times while it still looks
 * percent-encoded (no "=" yet but a %XX sequence, e.g. "query_id%3D…" or doubly encoded
 * "%253D"). A value that fails to decode is returned as it stood.
 */
export function decodeMockInitData(raw: string): string {
  let value = raw.trim();
  for (let round = 0; round < 2 && looksPercentEncoded(value); round++) {
    try {
      value = decodeURIComponent(value);
    } catch {
      break;
    }
  }
  return value;
}

/** True when `value` has no raw "=" or "&" separators but has %XX escapes: a whole query string encoded once more. */
export function looksPercentEncoded(value: string): boolean {
  return !/[=&]/.test(value) && /%[0-9A-Fa-f]{2}/.test(value);
}

/** "#rrggbb" (or "#rgb") to an RGB triple, or null. */
export function hexToRgb(hex: string | undefined): [number, number, number] | null {
  if (!hex) return null;
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join("") : match[1]!;
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}
