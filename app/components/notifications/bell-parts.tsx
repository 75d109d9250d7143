/** The bell's (notification-bell.tsx) look and address, which its menu (notification-menu.tsx) loads from and posts to. */
import { formatUnreadCount } from "~/components/realtime/unread";
import { cn } from "~/lib/utils";

/** The notifications page, which the bell links to and its menu loads from and posts to. */
export const NOTIFICATIONS_PATH = "/profile/notifications";

/** The bell link's look. */
export const BELL_CLASS =
  "relative inline-flex size-9 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

/** The unread badge on the bell; `data-count` carries the exact figure for tests and styles. */
export function BellBadge({ count }: { count: number }) {
  return (
    <span
      data-testid="notifications-badge"
      data-count={count}
      aria-hidden
      className={cn(
        "absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-primary px-1 text-center text-[11px] leading-5 font-semibold text-primary-foreground ring-2 ring-background",
        count === 0 && "hidden",
      )}
    >
      {formatUnreadCount(count)}
    </span>
  );
}
