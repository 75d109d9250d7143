/**
 * The bottom navigation bar of phones and the Telegram Mini App (docs/product/interface.md#phones):
 * Главная, Поиск, Чаты and Уведомления with their unread badges, Профиль; a visitor gets Главная,
 * Поиск, Гарант and Войти. Hidden from the md breakpoint (768 px) up, where the header has room.
 * Plain links, so it works without JavaScript; the badges are the header's live counters. What it
 * covers makes room by `--bottom-nav-height` (app/app.css), which follows its links' height.
 */
import { Icon } from "~/components/ui/icon";
import { NavLink } from "~/components/ui/link";
import type { SpriteIconName } from "~/lib/icons";
import { useUnread } from "~/components/realtime/realtime-provider";
import { formatUnreadCount } from "~/components/realtime/unread";
import { cn } from "~/lib/utils";
import type { Viewer } from "~/lib/viewer";

interface Item {
  to: string;
  label: string;
  icon: SpriteIconName;
  end?: boolean;
  count?: number;
}

export function BottomNav({ viewer }: { viewer: Viewer | null }) {
  const unread = useUnread();
  const items: Item[] = viewer
    ? [
        { to: "/", label: "Главная", icon: "house", end: true },
        { to: "/search", label: "Поиск", icon: "search" },
        { to: "/profile/conversations", label: "Чаты", icon: "messages-square", count: unread?.chats ?? 0 },
        { to: "/profile/notifications", label: "Уведомления", icon: "bell", count: unread?.notifications ?? 0 },
        { to: "/profile", label: "Профиль", icon: "user", end: true },
      ]
    : [
        { to: "/", label: "Главная", icon: "house", end: true },
        { to: "/search", label: "Поиск", icon: "search" },
        { to: "/services/guarantor", label: "Гарант", icon: "shield-check" },
        { to: "/auth/login", label: "Войти", icon: "log-in" },
      ];
  return (
    <nav
      aria-label="Быстрые разделы"
      data-testid="bottom-nav"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="mx-auto flex max-w-lg">
        {items.map(({ to, label, icon, end, count }) => (
          <li key={to} className="flex-1">
            <NavLink
              to={to}
              end={end}
              aria-label={count ? `${label}: ${formatUnreadCount(count)} непрочитанных` : undefined}
              className={({ isActive }) => cn("bottom-nav-link", isActive && "text-primary")}
            >
              <Icon name={icon} className="size-5" />
              <span className="max-w-full truncate">{label}</span>
              {count ? (
                <span
                  aria-hidden
                  data-testid={`bottom-nav-badge-${to.split("/").pop()}`}
                  className="absolute top-1 left-1/2 ml-1.5 min-w-5 rounded-full bg-primary px-1 text-center text-[11px] leading-5 font-semibold text-primary-foreground ring-2 ring-background"
                >
                  {formatUnreadCount(count)}
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
