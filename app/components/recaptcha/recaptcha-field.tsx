/**
 * reCAPTCHA v3 for a form (issue 6 "Captcha"): when the loader passes a site key, loads
 * Google's script once, asks for a token for `action` and keeps it fresh (tokens live two
 * minutes) in the hidden field `recaptchaToken` that the action checks
 * (lib/recaptcha/check.server.ts). Without JavaScript the field stays empty, the note below
 * says why, and the server answers with a clear message. A script that fails to load is only
 * logged (docs/product/accounts.md#captcha).
 */
import { useEffect, useState } from "react";

/** Must match lib/recaptcha/check.server.ts RECAPTCHA_FIELD. */
const FIELD = "recaptchaToken";
/** Tokens expire after 2 minutes; fetch a new one well before. */
const REFRESH_MS = 90_000;

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let loading: Promise<Grecaptcha> | undefined;

function loadScript(siteKey: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => (window.grecaptcha ? window.grecaptcha.ready(() => resolve(window.grecaptcha!)) : reject(new Error("grecaptcha missing")));
    script.onerror = () => reject(new Error("script failed to load"));
    document.head.appendChild(script);
  });
  loading.catch(() => (loading = undefined));
  return loading;
}

export function RecaptchaField({ siteKey, action }: { siteKey: string | null; action: "login" | "register" }) {
  const [token, setToken] = useState("");
  useEffect(() => {
    if (!siteKey) return;
    let stopped = false;
    const refresh = () =>
      loadScript(siteKey)
        .then((g) => g.execute(siteKey, { action }))
        .then((value) => {
          if (!stopped) setToken(value);
        })
        .catch((error: unknown) => console.warn("reCAPTCHA initialisation failed", error));
    void refresh();
    const timer = window.setInterval(refresh, REFRESH_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [siteKey, action]);
  if (!siteKey) return null;
  return (
    <>
      <input type="hidden" name={FIELD} value={token} />
      <noscript>
        <p className="rounded-md border border-warning bg-warning/10 p-3 text-sm">
          Форма защищена reCAPTCHA, которая работает только с включённым JavaScript. Включите JavaScript, чтобы войти или зарегистрироваться.
        </p>
      </noscript>
      <p className="text-xs text-muted-foreground">
        Сайт защищён reCAPTCHA; действуют{" "}
        <a href="https://policies.google.com/privacy" className="underline" target="_blank" rel="noreferrer">
          Политика конфиденциальности
        </a>{" "}
        и{" "}
        <a href="https://policies.google.com/terms" className="underline" target="_blank" rel="noreferrer">
          Условия использования
        </a>{" "}
        Google.
      </p>
    </>
  );
}
