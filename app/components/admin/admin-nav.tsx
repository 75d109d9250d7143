/**
 * The admin area's navigation (docs/product/moderation.md#admin-pages): a column beside the page
 * on wide screens, a scrolling row of tabs on narrow ones. Plain links: works without JavaScript.
 */
import { NavLink } from "~/components/ui/link";
import { BarChart3, FileText, Flag, HelpCircle, LayoutDashboard, Megaphone, Music, Settings, Users } from "lucide-react";
import { cn } from "~/lib/utils";

interface AdminNavItem {
  to: string;
  label: string;
  icon: typeof LayoutDashboard;
  end?: boolean;
  /** Shown to admins only. */
  adminOnly?: boolean;
}

/** The pages of the admin area, in the order of the navigation. */
export const ADMIN_NAV: readonly AdminNavItem[] = [
  { to: "/admin", label: "Обзор", icon: LayoutDashboard, end: true },
  { to: "/admin/members", label: "Участники", icon: Users },
  { to: "/admin/reports", label: "Жалобы", icon: Flag },
  { to: "/admin/log", label: "Журнал", icon: FileText },
  { to: "/admin/stats", label: "Статистика", icon: BarChart3, adminOnly: true },
  { to: "/admin/settings", label: "Настройки", icon: Settings, adminOnly: true },
  { to: "/admin/music", label: "Музыка", icon: Music, adminOnly: true },
  { to: "/admin/faq", label: "Вопросы и ответы", icon: HelpCircle, adminOnly: true },
  { to: "/admin/ads", label: "Реклама", icon: Megaphone, adminOnly: true },
];

export function AdminNav({ isAdmin }: { isAdmin: boolean }) {
  const items = ADMIN_NAV.filter((item) => isAdmin || !item.adminOnly);
  return (
    <nav aria-label="Администрирование" className="lg:sticky lg:top-20 lg:self-start" data-testid="admin-nav">
      <p className="mb-2 hidden px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase lg:block">Администрирование</p>
      <ul className="flex gap-1 overflow-x-auto pb-1 lg:flex-col lg:overflow-visible lg:pb-0">
        {items.map(({ to, label, icon: Icon, end }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              className={({ isActive }) =>
                cn(
                  "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors hover:bg-accent hover:text-accent-foreground",
                  isActive ? "bg-accent text-accent-foreground" : "text-muted-foreground",
                )
              }
            >
              <Icon aria-hidden className="size-4" />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
