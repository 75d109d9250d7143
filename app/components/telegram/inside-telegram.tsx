/**
 * The Telegram Mini App behaviour (docs/product/accounts.md#telegram-mini-app, issue 6), mounted by TelegramMiniApp
 * (telegram-mini-app.tsx) only inside Telegram, where it loads Telegram's script, uses its theme colours (unless the member chose
 * their own) and back button, and signs in automatically: after the script loads it polls for
 * initData (100 ms, 50 times), posts it once per browser session, and on success reloads the
 * user and goes to `/` replacing history. Failures are only logged (docs/product/accounts.md#telegram-mini-app).
 */
import { callApi } from "~/components/api/call-api";
import { useEffect, useState } from "react";
import { useLocation, useNavigate, useRevalidator } from "react-router";
import { contrastRatio, MIN_TEXT_CONTRAST, readableTextOn, rgbToHslComponents } from "~/lib/theme";
import {
  hexToRgb,
  isTelegramLaunch,
  loadTelegramScript,
  TELEGRAM_AUTH_FLAG,
  TELEGRAM_MARK,
  TELEGRAM_AUTH_PATH,
  telegramWebApp,
  waitForInitData,
  type TelegramWebApp,
} from "./webapp";

/**
 * `mock`: development's stand-in initData, or null. `ownTheme`: the member chose their own colours (Telegram's are not applied). `signedIn`: a
 * member is already signed in here — no automatic sign-in then, so opening the Mini App never
 * swaps an existing session for another (new, unlinked) Telegram member; linking is done in
 * /profile/settings.
 */
export default function InsideTelegram({ mock, ownTheme, signedIn }: { mock: string | null; ownTheme: boolean; signedIn: boolean }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [scriptReady, setScriptReady] = useState(false);

  useEffect(() => {
    // The compact header (docs/product/interface.md#phones); the head's script usually set it already.
    document.documentElement.setAttribute(TELEGRAM_MARK, "");
    let cancelled = false;
    void (async () => {
      let read: () => string | undefined = () => telegramWebApp()?.initData;
      if (mock && !isTelegramLaunch()) {
        read = () => mock;
      } else if (!(await loadTelegramScript())) {
        console.warn("Telegram: the Mini App script did not load; automatic sign-in skipped");
        return;
      }
      if (cancelled) return;
      setScriptReady(true);
      const webApp = telegramWebApp();
      webApp?.ready?.();
      webApp?.expand?.();
      if (!ownTheme && webApp) applyTelegramTheme(webApp);
      // The diagnostics page only looks: it must not sign in and leave for `/`.
      if (signedIn || window.location.pathname.startsWith("/debug/") || sessionStorage.getItem(TELEGRAM_AUTH_FLAG)) return;
      const initData = await waitForInitData(read);
      if (cancelled) return;
      if (!initData) {
        console.warn("Telegram: initData unavailable; automatic sign-in skipped");
        return;
      }
      if (await postInitData(initData)) {
        sessionStorage.setItem(TELEGRAM_AUTH_FLAG, "1");
        await revalidator.revalidate();
        if (!cancelled) await navigate("/", { replace: true });
      }
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per page load: the flag, not re-renders, decides whether to post again.
  }, []);

  useTelegramBackButton(scriptReady);
  return null;
}

/**
 * Posts initData (docs/product/accounts.md#telegram-mini-app); true only for an answer reading
 * `{ok: true}`. A refusal shows the «Ошибка!» toast with the server's message (callApi).
 */
async function postInitData(initData: string): Promise<boolean> {
  try {
    await callApi(TELEGRAM_AUTH_PATH, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ initData }) });
    return true;
  } catch {
    return false;
  }
}

/** Telegram's colours as the site's theme variables (and its dark scheme), on <html>. */
function applyTelegramTheme(webApp: TelegramWebApp): void {
  const root = document.documentElement;
  // Telegram's scheme wins over the system's (docs/product/interface.md#dark-mode).
  root.classList.add(webApp.colorScheme === "dark" ? "dark" : "light");
  const params = webApp.themeParams ?? {};
  const mapping: [string, string | undefined][] = [
    ["--background", params.bg_color],
    ["--foreground", params.text_color],
    ["--secondary", params.secondary_bg_color],
    ["--primary", params.button_color],
    ["--primary-foreground", params.button_text_color],
    ["--muted-foreground", params.hint_color],
  ];
  for (const [variable, hex] of mapping) {
    const rgb = hexToRgb(hex);
    if (rgb) root.style.setProperty(variable, rgbToHslComponents(rgb));
  }
  // Telegram's button text, unless it is hard to read on the button: then by contrast (docs/product/interface.md#theme).
  const button = hexToRgb(params.button_color);
  const buttonText = hexToRgb(params.button_text_color);
  if (button && (!buttonText || contrastRatio(buttonText, button) < MIN_TEXT_CONTRAST)) {
    root.style.setProperty("--primary-foreground", rgbToHslComponents(readableTextOn(button)));
  }
}

/** Telegram's back button: shown away from `/`, going back in history. */
function useTelegramBackButton(scriptReady: boolean): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const button = telegramWebApp()?.BackButton;
    if (!button) return;
    const back = () => void navigate(-1);
    if (location.pathname === "/") {
      button.hide();
      return;
    }
    button.show();
    button.onClick(back);
    return () => button.offClick(back);
  }, [location.pathname, navigate, scriptReady]);
}
