/**
 * /admin/stats (admins only; docs/product/moderation.md#stats): per-day sign-ups, posts, comments,
 * messages, deals created and completed, transfer and deal volume for the last 7, 30 or 90 Moscow
 * days (`?days=`; anything else shows 7). Each series is a chart (with JavaScript) and a table
 * beside it with the same numbers (without JavaScript too).
 */
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/stats";
import { AdminSection } from "~/components/admin/admin-ui";
import { formatStatsValue, shortDay, StatsChart } from "~/components/admin/stats-chart";
import { StatsQuerySchema } from "~/domain/moderation/schemas";
import { getDailyStats } from "~/domain/moderation/stats.server";
import type { StatsSeries } from "~/domain/moderation/types";
import { requireUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { cn } from "~/lib/utils";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Статистика — администрирование");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const { days } = StatsQuerySchema.parse({ days: new URL(request.url).searchParams.get("days") ?? undefined });
  return pageData(async () => ({ stats: await getDailyStats(context.db, user.id, days) }));
}

export default function AdminStatsPage({ loaderData }: Route.ComponentProps) {
  const { stats } = loaderData;
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Статистика</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            По дням (МСК), с {shortDay(stats.from)} по {shortDay(stats.to)}; сегодняшний день — на текущий момент.
          </p>
        </div>
        <nav aria-label="Период" className="flex gap-1 rounded-lg border border-border p-1" data-testid="stats-windows">
          {([7, 30, 90] as const).map((days) => (
            <Link
              key={days}
              to={`/admin/stats?days=${days}`}
              aria-current={days === stats.days ? "page" : undefined}
              className={cn("rounded-md px-3 py-1 text-sm font-medium", days === stats.days ? "bg-primary text-primary-foreground" : "hover:bg-accent")}
            >
              {days} дней
            </Link>
          ))}
        </nav>
      </div>
      {stats.series.map((series) => (
        <AdminSection
          key={series.metric}
          id={`stats-${series.metric}`}
          title={series.label}
          description={`Всего за период: ${formatStatsValue(series, series.total)}`}
        >
          <div className="grid gap-4 lg:grid-cols-[1fr_16rem]">
            <StatsChart series={series} />
            <StatsTable series={series} />
          </div>
        </AdminSection>
      ))}
    </div>
  );
}

function StatsTable({ series }: { series: StatsSeries }) {
  return (
    <div className="max-h-56 overflow-y-auto rounded-lg border border-border">
      <table className="w-full text-sm" data-testid="stats-table">
        <caption className="sr-only">{series.label} по дням</caption>
        <thead className="sticky top-0 bg-card text-left text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-1 font-medium">
              День
            </th>
            <th scope="col" className="px-3 py-1 text-right font-medium">
              Значение
            </th>
          </tr>
        </thead>
        <tbody>
          {[...series.points].reverse().map((point) => (
            <tr key={point.day} className="border-t border-border">
              <th scope="row" className="px-3 py-1 text-left font-normal">
                {shortDay(point.day)}
              </th>
              <td className="px-3 py-1 text-right tabular-nums">{formatStatsValue(series, point.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
