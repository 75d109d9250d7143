/**
 * The document shell (docs/product/interface.md, docs/product/routes.md#error-page): toast area, top loading bar, the trust card, the
 * member's colour theme, smooth scroll to the top after each navigation, and the error page.
 */
import { lazy, useEffect } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, useLocation, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { Link } from "~/components/ui/link";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { preloadFonts } from "./styles/fonts";
import { isReadMarking } from "~/components/conversations/links";
import { AppUpdates, isChunkLoadError, reloadAfterChunkError } from "~/components/layout/app-updates";
import { LoadingBar } from "~/components/loading-bar";
import { MusicPlayerSlot } from "~/components/music/player-slot";
import { TelegramMiniApp } from "~/components/telegram/telegram-mini-app";
import { TELEGRAM_MARK_SCRIPT } from "~/components/telegram/webapp";
import { ThemeStorage } from "~/components/settings/theme-storage";
import { useColorScheme } from "~/components/layout/color-scheme-toggle";
import { RealtimeProvider } from "~/components/realtime/realtime-provider";
import { loadRealtimeRootData } from "~/components/realtime/root-data.server";
import { AfterHydration } from "~/components/ui/after-hydration";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/use-toast";
import { getCurrentSession } from "~/lib/session.server";
import { commitCsrfToken } from "~/lib/csrf.server";
import { useNonce } from "~/lib/nonce";
import { useRootData } from "~/root-data";
import { themeStyle } from "~/lib/theme";
import { colorSchemeClass, colorSchemeFromCookie } from "~/lib/color-scheme";
import { takeToast } from "~/lib/toast.server";
import { toViewer } from "~/lib/viewer";
import { TrustCardHost } from "~/components/users/trust-card-host";
import { HintHost } from "~/components/ui/hint";
import { Icon } from "~/components/ui/icon";

/**
 * The toasts' area (Radix's toast), loaded once the page has hydrated: toasts are made by scripts,
 * and until JavaScript runs a flash toast shows as the banner below (decision 0040).
 */
const Toaster = lazy(() => import("~/components/ui/toaster"));

/**
 * The document's data: site name, the signed-in member (as the header shows them), the CSRF
 * token, a flash toast, the colour scheme (docs/product/interface.md#dark-mode), and for a member the realtime settings and unread figures (docs/product/notifications.md#unread-counting).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const [session, [csrfToken, csrfCookie], flash] = await Promise.all([
    getCurrentSession(context.db, request, context),
    commitCsrfToken(request),
    takeToast(request),
  ]);
  const user = session?.user ?? null;
  // Signed-in members get this session's live-connection token and the unread figures (docs/product/notifications.md#unread-counting).
  const realtime = session ? await loadRealtimeRootData(context, { id: session.user.id, apiToken: session.apiToken }) : null;
  const headers = new Headers();
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  if (flash.setCookie) headers.append("Set-Cookie", flash.setCookie);
  // The reader's scheme from its cookie, so <html> carries the right class at once (docs/product/interface.md#dark-mode).
  const colorScheme = colorSchemeFromCookie(request.headers.get("Cookie"));
  const viewer = user ? toViewer(user) : null;
  // The member's colours as <html>'s style variables, worked out here so browsers need no theme code (decision 0040).
  const theme = themeStyle(viewer?.theme);
  return data({ siteName: context.config.siteName, viewer, theme, csrfToken, toast: flash.toast, realtime, colorScheme }, { headers });
}

/**
 * The root loader runs again after every action, except the open conversation's read marking:
 * it posts as messages arrive, and reloading session, CSRF and unread counts for each message
 * of each member on the page would change nothing shown (the realtime provider already counts
 * that conversation read). Once the member is elsewhere the loader runs and the figures catch up.
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  if (isReadMarking(args)) return false;
  return args.defaultShouldRevalidate;
}

type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

/** The HTML document around every page, the error page included: theme, meta, scripts. */
export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRootData();
  const colorScheme = useColorScheme();
  preloadFonts();
  // Set once React has hydrated the document and run its first effects (children's run first): the
  // journeys wait for it before using what only the page's script does (tests/e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    // The head's script may mark <html> as the Telegram Mini App before React takes over.
    <html lang="ru" className={colorSchemeClass(colorScheme)} style={rootData?.theme} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: TELEGRAM_MARK_SCRIPT }} />
        {/* Pictures, not SVG: a browser draws an SVG icon on the page's main thread after the first
            paint (docs/decisions/0059). public/favicon.svg is their source: scripts/favicons.mjs. */}
        <link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        {/* With a precedence React 19 puts the stylesheet ahead of the scripts' module preloads, so the
            one render-blocking file is asked for first (docs/decisions/0032). */}
        <link rel="stylesheet" href={appStylesHref} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">
        {children}
        <ThemeStorage theme={rootData?.viewer?.theme} known={rootData !== undefined} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The shell around every page: CSRF token, loading bar, live connection, music, toasts, the trust card. */
export default function App({ loaderData }: Route.ComponentProps) {
  useFlashToast(loaderData.toast);
  useScrollToTopAfterNavigation();
  return (
    <AuthenticityTokenProvider token={loaderData.csrfToken}>
      {/* The first stop of the keyboard: straight past the header to the page (every layout's <main id="main">). */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[200] focus:rounded-md focus:bg-primary focus:px-4 focus:py-3 focus:text-primary-foreground focus:shadow-lg"
      >
        Перейти к содержимому
      </a>
      <LoadingBar />
      <AppUpdates />
      <TelegramMiniApp ownTheme={Boolean(loaderData.viewer?.theme)} signedIn={Boolean(loaderData.viewer)} />
      {/* Outside the pages, so the music keeps playing across client-side navigation (issue 11). */}
      <MusicPlayerSlot>
        {loaderData.realtime ? (
          <RealtimeProvider config={loaderData.realtime}>
            <Outlet />
          </RealtimeProvider>
        ) : (
          <Outlet />
        )}
      </MusicPlayerSlot>
      <AfterHydration fallback={null}>
        <Toaster />
      </AfterHydration>
      {/* The page's one trust card (decision 0038): a member's avatar or name hovered or focused opens it. */}
      <TrustCardHost />
      {/* The page's one hint (decision 0041): a hinted control hovered or focused from the keyboard shows it. */}
      <HintHost />
      {loaderData.toast ? <FlashBanner toast={loaderData.toast} /> : null}
    </AuthenticityTokenProvider>
  );
}

/**
 * A flash toast until JavaScript takes over, or without it: the toast area is empty until then. A
 * component of its own, so hydration's change of `useHydrated` re-renders only it, not the whole
 * shell: React re-renders a component whose external store changed after hydration synchronously,
 * in one task with everything beneath it (issue 12).
 */
function FlashBanner({ toast }: { toast: NonNullable<RootLoaderData["toast"]> }) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  // It lets clicks through and fades after the toast duration, so it never hides a form's button.
  return (
    <div
      role="status"
      className="pointer-events-none fixed right-4 bottom-4 z-[100] max-w-[420px] animate-[fade-out_400ms_ease-in_5s_forwards] rounded-lg border border-border bg-card p-4 shadow-lg"
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="text-sm text-muted-foreground">{toast.description}</p> : null}
    </div>
  );
}

function useFlashToast(flash: RootLoaderData["toast"]) {
  useEffect(() => {
    if (flash) toast({ title: flash.title, description: flash.description, variant: flash.variant });
  }, [flash]);
}

/** docs/product/routes.md#navigation-behaviour: after each navigation
 * finishes, the main scroll area scrolls smoothly to the top —
 * unless the address names a place on the page (/faq#question), which the page scrolls to.
 */
function useScrollToTopAfterNavigation() {
  const location = useLocation();
  const idle = useNavigation().state === "idle";
  useEffect(() => {
    if (idle && !location.hash) window.scrollTo({ top: 0, behavior: "smooth" });
  }, [location.pathname, location.search, location.hash, idle]);
}

/** Any error thrown while loading or rendering: the error page with its status and a Russian message. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // A page whose code chunk failed to load (a redeploy removed it) reloads, guarded for 10 s.
  useEffect(() => {
    if (isChunkLoadError(error)) reloadAfterChunkError();
  }, [error]);
  let status = 500;
  let message = "Что-то пошло не так. Попробуйте обновить страницу.";
  if (isRouteErrorResponse(error)) {
    status = error.status;
    message = typeof error.data === "string" ? error.data : (error.data?.message ?? error.statusText ?? message);
  } else if (import.meta.env.DEV && error instanceof Error) {
    message = error.message;
  }
  return <ErrorPage status={status} message={message} />;
}

/** The error page of docs/product/routes.md#error-page: «Ошибка», a crying heart, the status, the message, «На главную». */
export function ErrorPage({ status, message }: { status: number; message: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 px-4 text-center">
      <title>{`Ошибка | ${useRootData()?.siteName ?? "Сходка"}`}</title>
      <Icon name="heart-crack" className="size-24 text-primary [stroke-width:1.5]" />
      <div className="space-y-2">
        <h1 className="font-heading text-3xl font-bold">Ошибка</h1>
        <p className="font-heading text-6xl font-extrabold text-primary" data-testid="error-status">
          {status}
        </p>
        <p className="max-w-xl text-muted-foreground" data-testid="error-message">
          {message}
        </p>
      </div>
      <Button asChild size="lg">
        <Link to="/">На главную</Link>
      </Button>
    </main>
  );
}
