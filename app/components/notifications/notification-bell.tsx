/**
 * The header's bell (docs/product/notifications.md#the-bell): without JavaScript, and until the
 * page hydrates, a link to /profile/notifications with the unread badge. With JavaScript it opens
 * a menu of the latest 10 notifications (notification-menu.tsx). The menu's code, with Radix's
 * dropdown menu, loads once the page has hydrated, so visitors, who have no bell, never fetch it;
 * until it arrives the bell stays the link.
 */
import { Bell } from "lucide-react";
import { lazy } from "react";
import { AfterHydration } from "~/components/ui/after-hydration";
import { Link } from "~/components/ui/link";
import { formatUnreadCount } from "~/components/realtime/unread";
import { BELL_CLASS, BellBadge, NOTIFICATIONS_PATH } from "./bell-parts";

const BellMenu = lazy(() => import("./notification-menu"));

/** The bell for a member with `count` unread notifications (see the module comment). */
export function NotificationBell({ count }: { count: number }) {
  const label = count > 0 ? `Уведомления: ${formatUnreadCount(count)} непрочитанных` : "Уведомления";
  const link = (
    <Link to={NOTIFICATIONS_PATH} aria-label={label} title="Уведомления" className={BELL_CLASS} data-testid="notifications-bell">
      <Bell aria-hidden className="size-5" />
      <BellBadge count={count} />
    </Link>
  );
  return (
    <AfterHydration fallback={link}>
      <BellMenu count={count} label={label} />
    </AfterHydration>
  );
}
