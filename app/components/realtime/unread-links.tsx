/**
 * The header's notification bell (a menu of the latest notifications with JavaScript, a link
 * without: notification-bell.tsx) and conversations link with their unread badges (docs/product/notifications.md#unread-counting):
 * server-rendered from the root loader's figures (so they show without JavaScript too) and
 * changed live by the realtime provider's counters.
 */
import { Link } from "~/components/ui/link";
import { NotificationBell } from "~/components/notifications/notification-bell";
import { hint } from "~/components/ui/hint";
import { cn } from "~/lib/utils";
import { useUnread } from "./realtime-provider";
import { formatUnreadCount } from "./unread";
import { Icon } from "~/components/ui/icon";

/** The bell and conversations links with their badges; nothing without a signed-in member. */
export function UnreadLinks() {
  const unread = useUnread();
  if (!unread) return null;
  return (
    <>
      <NotificationBell count={unread.notifications} />
      <UnreadLink
        to="/profile/conversations"
        label="Беседы"
        count={unread.chats}
        testId="conversations-badge"
        icon={<Icon name="messages-square" className="size-5" />}
      />
    </>
  );
}

function UnreadLink({ to, label, count, testId, icon }: { to: string; label: string; count: number; testId: string; icon: React.ReactNode }) {
  const shown = formatUnreadCount(count);
  return (
    <Link
      to={to}
      {...hint(label)}
      aria-label={count > 0 ? `${label}: ${shown} непрочитанных` : label}
      className="relative inline-flex size-9 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground"
    >
      {icon}
      <span
        data-testid={testId}
        data-count={count}
        aria-hidden
        className={cn(
          "absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-primary px-1 text-center text-[11px] leading-5 font-semibold text-primary-foreground ring-2 ring-background",
          count === 0 && "hidden",
        )}
      >
        {shown}
      </span>
    </Link>
  );
}
