/**
 * The header's bell (docs/product/notifications.md#the-bell): a link to /profile/notifications
 * with the unread badge, which without JavaScript, and until the page hydrates, is all it is. Once
 * hydrated a plain click on it opens a menu of the latest 10 notifications (notification-menu.tsx)
 * instead. The link stays the server's element throughout (decision 0041): a press or a focus
 * landing on it while the page hydrates is never lost to a swapped copy. The menu's code, with
 * Radix's dropdown menu, loads once the page has hydrated, so visitors, who have no bell, never
 * fetch it; a press before it arrives opens the menu when it does.
 */
import { lazy, Suspense, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Link } from "~/components/ui/link";
import { formatUnreadCount } from "~/components/realtime/unread";
import { isPlainClick } from "~/lib/utils";
import { BELL_CLASS, BellBadge, NOTIFICATIONS_PATH } from "./bell-parts";
import { Icon } from "~/components/ui/icon";

const BellMenu = lazy(() => import("./notification-menu"));

/** The bell for a member with `count` unread notifications (see the module comment). */
export function NotificationBell({ count }: { count: number }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const bell = useRef<HTMLAnchorElement>(null);
  const label = count > 0 ? `Уведомления: ${formatUnreadCount(count)} непрочитанных` : "Уведомления";
  return (
    <span className="relative inline-flex">
      <Link
        ref={bell}
        to={NOTIFICATIONS_PATH}
        aria-label={label}
        title="Уведомления"
        className={BELL_CLASS}
        data-testid="notifications-bell"
        aria-haspopup={hydrated ? "menu" : undefined}
        aria-expanded={hydrated ? open : undefined}
        onClick={(event) => {
          // A new tab or window still goes to the page.
          if (!isPlainClick(event)) return;
          event.preventDefault();
          setOpen((now) => !now);
        }}
        onKeyDown={(event) => {
          // Enter clicks the link; Space and ArrowDown open the menu too, as on a menu button.
          if (event.key !== " " && event.key !== "ArrowDown") return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        <Icon name="bell" className="size-5" />
        <BellBadge count={count} />
      </Link>
      {hydrated ? (
        <Suspense fallback={null}>
          <BellMenu count={count} open={open} onOpenChange={setOpen} bell={bell} />
        </Suspense>
      ) : null}
    </span>
  );
}
