/**
 * /admin (moderators and admins; docs/product/moderation.md#admin-pages): the dashboard — items
 * with open reports, open claims, deals in dispute and members who joined today, each a link to
 * where they are handled, and the latest five entries of the audit log.
 */
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/dashboard";
import { AdminSection } from "~/components/admin/admin-ui";
import { AuditEntryList } from "~/components/admin/audit-entry-list";
import { listAuditLog } from "~/domain/moderation/audit.server";
import { getDashboardCounts } from "~/domain/moderation/members.server";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { formatCount, plural } from "~/lib/format";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Администрирование");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    const [counts, recent] = await Promise.all([getDashboardCounts(context.db, user.id), listAuditLog(context.db, user.id, {}, { page: 1, perPage: 5 })]);
    return { counts, recent: recent.items };
  });
}

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const { counts, recent } = loaderData;
  const cards = [
    {
      to: "/admin/reports",
      label: "Материалы с жалобами",
      value: counts.openReportItems,
      note: `${formatCount(counts.openReports)} ${plural(counts.openReports, ["открытая жалоба", "открытые жалобы", "открытых жалоб"])}`,
    },
    { to: "/claims", label: "Открытые претензии", value: counts.openClaims, note: "ждут решения" },
    { to: "/services/guarantor", label: "Споры по сделкам", value: counts.openDisputes, note: "ждут модератора" },
    { to: "/admin/members", label: "Новые участники", value: counts.newMembersToday, note: "с начала дня (МСК)" },
  ];
  return (
    <div className="grid gap-6">
      <h1 className="font-heading text-2xl font-extrabold sm:text-3xl">Администрирование</h1>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="admin-dashboard">
        {cards.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="grid gap-1 rounded-2xl border border-border bg-card p-5 shadow-sm transition-colors hover:bg-accent">
              <span className="text-sm font-medium text-muted-foreground">{card.label}</span>
              <span className="font-heading text-4xl font-extrabold tabular-nums">{formatCount(card.value)}</span>
              <span className="text-xs text-muted-foreground">{card.note}</span>
            </Link>
          </li>
        ))}
      </ul>
      <AdminSection id="recent-actions" title="Последние действия">
        <AuditEntryList entries={recent} empty="Журнал пока пуст." />
        <Link to="/admin/log" className="text-sm font-medium text-primary hover:underline">
          Весь журнал →
        </Link>
      </AdminSection>
    </div>
  );
}
