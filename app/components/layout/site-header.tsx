import { Form, Link, NavLink } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { LogOut, PenSquare } from "lucide-react";
import { UnreadLinks } from "~/components/realtime/unread-links";
import { Avatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "~/components/ui/tooltip";
import { cn } from "~/lib/utils";
import type { Viewer } from "~/lib/viewer";

const NAV = [
  { to: "/", label: "Главная", end: true },
  { to: "/articles", label: "Статьи" },
  { to: "/search", label: "Поиск" },
  { to: "/leaderboard", label: "Лидеры" },
  { to: "/services/guarantor", label: "Гарант" },
  { to: "/blacklist", label: "Чёрный список" },
];

/** The top bar of the default and bare layouts; every action in it works without JavaScript. */
export function SiteHeader({ siteName, viewer }: { siteName: string; viewer: Viewer | null }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
        <Link to="/" className="font-heading text-xl font-extrabold tracking-tight text-primary">
          {siteName}
        </Link>
        <nav aria-label="Разделы" className="hidden flex-1 items-center gap-1 md:flex">
          {NAV.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                cn(
                  "rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground",
                  isActive && "bg-accent text-accent-foreground",
                )
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {viewer ? (
            <>
              <Button asChild size="sm">
                <Link to="/posts/new">
                  <PenSquare aria-hidden className="size-4" />
                  <span className="hidden sm:inline">Написать</span>
                </Link>
              </Button>
              <UnreadLinks />
              <Link to="/profile" className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-accent" data-testid="header-profile">
                <Avatar username={viewer.username} src={viewer.image} size="sm" />
                <span className="hidden text-sm font-medium lg:inline">{viewer.username}</span>
              </Link>
              <Form method="post" action="/auth/logout">
                <AuthenticityTokenInput />
                <Tooltip>
                  <TooltipTrigger asChild>
                    <Button type="submit" variant="ghost" size="icon" aria-label="Выйти">
                      <LogOut aria-hidden className="size-4" />
                    </Button>
                  </TooltipTrigger>
                  <TooltipContent>Выйти</TooltipContent>
                </Tooltip>
              </Form>
            </>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm">
                <Link to="/auth/login">Войти</Link>
              </Button>
              <Button asChild size="sm">
                <Link to="/auth/register">Регистрация</Link>
              </Button>
            </>
          )}
        </div>
      </div>
      <nav aria-label="Разделы (мобильная версия)" className="flex gap-1 overflow-x-auto border-t border-border px-4 py-2 md:hidden">
        {NAV.map((item) => (
          <NavLink key={item.to} to={item.to} end={item.end} className="whitespace-nowrap rounded-md px-2 py-1 text-sm text-muted-foreground">
            {item.label}
          </NavLink>
        ))}
      </nav>
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
        <nav aria-label="Полезное" className="flex gap-4">
          <Link to="/faq" className="hover:text-foreground">
            Вопросы и ответы
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
