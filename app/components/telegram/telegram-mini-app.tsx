/**
 * The root's Telegram Mini App part (docs/product/accounts.md#telegram-mini-app): outside Telegram it does nothing and
 * loads nothing more; inside it (or with development's mock initData) it loads InsideTelegram
 * (inside-telegram.tsx), the behaviour itself (decision 0040). Without JavaScript nothing of this runs.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { decodeMockInitData, isTelegramLaunch } from "./webapp";

const InsideTelegram = lazy(() => import("./inside-telegram"));

/** Development only: VITE_TELEGRAM_MOCK_INIT_DATA stands in for Telegram's initData outside Telegram (docs/product/accounts.md#telegram-mini-app). */
function mockInitData(): string | null {
  const raw = import.meta.env.DEV ? (import.meta.env.VITE_TELEGRAM_MOCK_INIT_DATA as string | undefined) : undefined;
  return raw ? decodeMockInitData(raw) : null;
}

/** See the module comment; `ownTheme` and `signedIn` are InsideTelegram's. */
export function TelegramMiniApp({ ownTheme, signedIn }: { ownTheme: boolean; signedIn: boolean }) {
  // Null until the page has hydrated and found a Mini App launch (or the mock).
  const [launch, setLaunch] = useState<{ mock: string | null } | null>(null);
  useEffect(() => {
    const mock = mockInitData();
    if (isTelegramLaunch() || mock) setLaunch({ mock });
  }, []);
  if (!launch) return null;
  return (
    <Suspense fallback={null}>
      <InsideTelegram mock={launch.mock} ownTheme={ownTheme} signedIn={signedIn} />
    </Suspense>
  );
}
