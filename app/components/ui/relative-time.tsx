/**
 * A date read relatively (docs/product/interface.md#dates-and-numbers): the server renders it in
 * Moscow time marked «МСК»; after hydration the browser renders it again in the reader's time
 * zone and keeps it fresh every minute. The full date and time is in the title (tooltip).
 */
import { useEffect, useState } from "react";
import { formatDateTimeIn, formatRelative, LOCAL_TIME_ZONE, SERVER_TIME_ZONE } from "~/lib/format";

/** How often a shown relative date is refreshed, in ms. */
export const RELATIVE_TIME_REFRESH_MS = 60_000;

export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  // null until hydrated: the server's Moscow rendering, which the first browser render repeats. Then
  // the reader's own zone, as the browser's local time (no Intl in the browser: lib/format.ts).
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), RELATIVE_TIME_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  const text = now ? formatRelative(iso, now, LOCAL_TIME_ZONE) : formatRelative(iso, new Date(), SERVER_TIME_ZONE, "МСК");
  const title = now ? formatDateTimeIn(iso, LOCAL_TIME_ZONE) : `${formatDateTimeIn(iso, SERVER_TIME_ZONE)} МСК`;
  return (
    // The server's clock and zone differ from the browser's: the text may differ at hydration, by design.
    // Whole seconds are enough for the machine-readable date: 4 bytes less on each of a page's dates.
    <time dateTime={iso.replace(/\.\d+Z$/, "Z")} title={title} className={className} suppressHydrationWarning>
      {text}
    </time>
  );
}
