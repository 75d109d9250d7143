import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Form, Link, NavLink } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ColorSchemeToggle } from "~/components/layout/color-scheme-toggle";
import { UnreadLinks } from "~/components/realtime/unread-links";
import { Avatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { hint } from "~/components/ui/hint";
import { cn } from "~/lib/utils";
import type { Viewer } from "~/lib/viewer";
import { Icon } from "~/components/ui/icon";

const NAV: readonly { to: string; label: string; end?: boolean }[] = [
  { to: "/", label: "Главная", end: true },
  { to: "/articles", label: "Статьи" },
  { to: "/search", label: "Поиск" },
  { to: "/leaderboard", label: "Лидеры" },
  { to: "/services/guarantor", label: "Гарант" },
  { to: "/blacklist", label: "Чёрный список" },
];

type NavItem = (typeof NAV)[number];

/**
 * A row of section links, the current section highlighted; `children` renders each link's content.
 * A row that scrolls sideways (the phone's strip) brings the current section into view after each
 * navigation, so it is not hidden past the edge.
 */
function SectionLinks({
  items,
  label,
  className,
  linkClassName,
  children,
}: {
  items: readonly NavItem[];
  label: string;
  className: string;
  linkClassName: string;
  children: (item: NavItem) => React.ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const reveal = () => {
      const row = ref.current;
      const current = row?.querySelector<HTMLElement>("[aria-current='page']");
      if (!row || !current || row.scrollWidth <= row.clientWidth) return;
      row.scrollLeft = current.offsetLeft - row.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
    };
    reveal();
    // The web fonts may arrive later and widen the links: place it again then.
    void document.fonts?.ready.then(reveal);
  }, [pathname]);
  return (
    <nav ref={ref} aria-label={label} className={className}>
      {items.map((item) => (
        <NavLink key={item.to} to={item.to} end={item.end} className={({ isActive }) => cn(linkClassName, isActive && "bg-accent text-accent-foreground")}>
          {children(item)}
        </NavLink>
      ))}
    </nav>
  );
}

/** The admin area's link, for moderators and admins only (docs/product/moderation.md#admin-pages). */
const ADMIN_LINK: NavItem = { to: "/admin", label: "Администрирование" };

/**
 * The top bar of the default and bare layouts; every action in it works without JavaScript. On a
 * phone inside the Telegram Mini App (`tg:`, docs/product/interface.md#phones) it is one slim row —
 * the site name, the sections strip scrolling between, the actions — since Telegram's own header
 * and the bottom bar already take their share of the screen.
 */
export function SiteHeader({ siteName, viewer }: { siteName: string; viewer: Viewer | null }) {
  const nav = viewer && (viewer.role === "moderator" || viewer.role === "admin") ? [...NAV, ADMIN_LINK] : NAV;
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur max-md:tg:flex max-md:tg:h-12 max-md:tg:items-center max-md:tg:gap-1 max-md:tg:px-2">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 max-md:tg:contents">
        <Link to="/" className="tap-target font-heading text-xl font-extrabold tracking-tight text-primary max-md:tg:shrink-0 max-md:tg:text-lg">
          {siteName}
        </Link>
        <SectionLinks items={nav} label="Разделы" className="hidden flex-1 items-center gap-1 md:flex" linkClassName="nav-link">
          {(item) =>
            item.to === ADMIN_LINK.to ? (
              // The header has no room for the long word beside the sections: an icon, named for screen readers.
              <span className="flex items-center" title={item.label}>
                <Icon name="shield-check" className="size-4" />
                <span className="sr-only">{item.label}</span>
              </span>
            ) : (
              item.label
            )
          }
        </SectionLinks>
        <div className="ml-auto flex items-center gap-2 max-md:tg:order-2 max-md:tg:ml-0 max-md:tg:gap-0.5">
          <ColorSchemeToggle />
          {viewer ? (
            <>
              <Button asChild size="sm" className="max-md:size-11">
                <Link to="/posts/new" aria-label="Написать">
                  <Icon name="square-pen" className="size-4" />
                  <span className="hidden sm:inline">Написать</span>
                </Link>
              </Button>
              {/* On phones the bottom bar carries chats, notifications and the profile. */}
              <div className="hidden items-center gap-2 md:flex">
                <UnreadLinks />
              </div>
              <Link to="/profile" className="hidden items-center gap-2 rounded-md px-2 py-1 hover:bg-accent md:flex" data-testid="header-profile">
                <Avatar username={viewer.username} src={viewer.image} size="sm" />
                <span className="hidden text-sm font-medium lg:inline">{viewer.username}</span>
              </Link>
              <Form method="post" action="/auth/logout">
                <AuthenticityTokenInput />
                <Button type="submit" variant="ghost" size="icon" aria-label="Выйти" className="max-md:size-11" {...hint("Выйти")}>
                  <Icon name="log-out" className="size-4" />
                </Button>
              </Form>
            </>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm" className="max-md:h-11">
                <Link to="/auth/login">Войти</Link>
              </Button>
              <Button asChild size="sm" className="max-md:h-11">
                <Link to="/auth/register">Регистрация</Link>
              </Button>
            </>
          )}
        </div>
      </div>
      <SectionLinks
        items={nav}
        label="Разделы (мобильная версия)"
        className="flex gap-1 overflow-x-auto overscroll-x-contain border-t border-border px-2 py-1 md:hidden max-md:tg:order-1 max-md:tg:min-w-0 max-md:tg:flex-1 max-md:tg:border-t-0 max-md:tg:p-0"
        linkClassName="nav-strip-link"
      >
        {(item) => item.label}
      </SectionLinks>
    </header>
  );
}

export function SiteFooter({ siteName }: { siteName: string }) {
  return (
    <footer className="mt-16 border-t border-border py-8 text-sm text-muted-foreground">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4">
        <p>
          © {new Date().getFullYear()} {siteName} — сообщество, где сделки проходят честно.
        </p>
        <nav aria-label="Полезное" className="flex flex-wrap gap-x-4 gap-y-2">
          <Link to="/faq" className="hover:text-foreground">
            Вопросы и ответы
          </Link>
          <Link to="/music" className="hover:text-foreground">
            Музыка
          </Link>
          <Link to="/chatgpt" className="hover:text-foreground">
            Ассистент
          </Link>
          <Link to="/services/guarantor" className="hover:text-foreground">
            Гарант-сервис
          </Link>
          <Link to="/ads" className="hover:text-foreground">
            Реклама
          </Link>
        </nav>
      </div>
    </footer>
  );
}
