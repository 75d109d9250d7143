/**
 * Keeping an open tab on the current build (docs/product/routes.md#navigation-behaviour):
 *
 * - A code chunk that fails to load (the site was redeployed and the old chunk is gone) reloads
 *   the page, at most once per 10 000 ms per tab: the time of the last such reload is kept in
 *   session storage, so a chunk that stays broken cannot loop (docs/product/routes.md#navigation-behaviour).
 * - Every 3 600 000 ms the tab asks `/api/build` which build the server runs; when it differs
 *   from the one the tab loaded, a toast offers «Обновить» (docs/product/interface.md).
 */
import { useEffect } from "react";
import { toast } from "~/components/ui/use-toast";

/** How often an open tab checks for a new build, ms (docs/product/interface.md). */
export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
/** The shortest time between two reloads after failed chunk loads, ms (docs/product/interface.md). */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
/** The session-storage key holding the time (ms since the epoch) of the last chunk reload. */
export const CHUNK_RELOAD_KEY = "chunk_reload_at";

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/** Whether `error` is a failed load of a code chunk (Chromium, Firefox and Safari word it differently). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return CHUNK_ERROR.test(message);
}

/**
 * Reloads the page unless a chunk reload happened less than CHUNK_RELOAD_GUARD_MS ago in this
 * tab. Returns whether it reloaded. `storage` and `reload` are injectable for tests.
 */
export function reloadAfterChunkError(
  now = Date.now(),
  storage: Pick<Storage, "getItem" | "setItem"> = sessionStorage,
  reload = () => window.location.reload(),
): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  reload();
  return true;
}

interface ManifestWindow {
  __reactRouterManifest?: { version?: string };
}

/** The build this tab loaded (React Router's manifest version), or null before hydration. */
function loadedBuild(): string | null {
  return (window as ManifestWindow).__reactRouterManifest?.version ?? null;
}

/** Installs the chunk reload guard and the hourly build check; renders nothing. */
export function AppUpdates() {
  useEffect(() => {
    const onPreloadError = (event: Event) => {
      // Vite's module preloader: the chunk is gone; reloading fetches the new build's pages.
      if (reloadAfterChunkError()) event.preventDefault();
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isChunkLoadError(event.reason)) reloadAfterChunkError();
    };
    window.addEventListener("vite:preloadError", onPreloadError);
    window.addEventListener("unhandledrejection", onRejection);

    let told = false;
    const check = async () => {
      const loaded = loadedBuild();
      if (told || !loaded) return;
      try {
        const reply = await fetch("/api/build", { cache: "no-store" });
        if (!reply.ok) return;
        const { version } = (await reply.json()) as { version?: string };
        if (!version || version === loaded) return;
        told = true;
        // The toast's module came with the lazily loaded toasts' area (app/root.tsx) long before
        // this hourly check: importing it again costs no request, even after a deploy.
        const { ToastAction } = await import("~/components/ui/toast");
        toast({
          title: "Доступна новая версия сайта",
          description: "Обновите страницу, чтобы получить последние исправления.",
          action: (
            <ToastAction altText="Обновить страницу" onClick={() => window.location.reload()}>
              Обновить
            </ToastAction>
          ),
        });
      } catch {
        // Offline or the server is restarting: the next hour asks again.
      }
    };
    const timer = window.setInterval(() => void check(), BUILD_CHECK_INTERVAL_MS);
    return () => {
      window.removeEventListener("vite:preloadError", onPreloadError);
      window.removeEventListener("unhandledrejection", onRejection);
      window.clearInterval(timer);
    };
  }, []);
  return null;
}
