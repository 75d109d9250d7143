/**
 * The header's bell (docs/product/notifications.md#the-bell): without JavaScript, and until the
 * page hydrates, a link to /profile/notifications with the unread badge. With JavaScript it opens
 * a menu of the latest 10 notifications (notification-menu.tsx). The menu's code, with Radix's
 * dropdown menu, loads once the page has hydrated, so visitors, who have no bell, never fetch it;
 * until it arrives the bell stays the link.
 */
import { Bell } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "~/components/ui/link";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatUnreadCount } from "~/components/realtime/unread";
import { BELL_CLASS, BellBadge, NOTIFICATIONS_PATH } from "./bell-parts";

const BellMenu = lazy(() => import("./notification-menu"));

/** The bell for a member with `count` unread notifications (see the module comment). */
export function NotificationBell({ count }: { count: number }) {
  const hydrated = useHydrated();
  const label = count > 0 ? `Уведомления: ${formatUnreadCount(count)} непрочитанных` : "Уведомления";
  const link = (
    <Link to={NOTIFICATIONS_PATH} aria-label={label} title="Уведомления" className={BELL_CLASS} data-testid="notifications-bell">
      <Bell aria-hidden className="size-5" />
      <BellBadge count={count} />
    </Link>
  );
  if (!hydrated) return link;
  return (
    <Suspense fallback={link}>
      <BellMenu count={count} label={label} />
    </Suspense>
  );
}
