import { Link } from "~/components/ui/link";
import { cn } from "~/lib/utils";

export interface LeaderboardTabsProps {
  metrics: { id: string; label: string; usesPeriod: boolean }[];
  periods: { id: string; label: string }[];
  by: string;
  period: string;
}

const tab = (active: boolean) =>
  cn(
    "inline-flex items-center whitespace-nowrap rounded-full border px-3 py-1 text-sm transition-colors max-md:min-h-11",
    active ? "border-primary bg-primary text-primary-foreground" : "border-border bg-card hover:border-primary/50",
  );

/**
 * The ranking and period of /leaderboard as plain links (?by=…&period=…), so switching works
 * without JavaScript; the period row is left out for a metric that ignores periods.
 */
export function LeaderboardTabs({ metrics, periods, by, period }: LeaderboardTabsProps) {
  const href = (nextBy: string, nextPeriod: string) => `/leaderboard?${new URLSearchParams({ by: nextBy, period: nextPeriod })}`;
  const usesPeriod = metrics.find((m) => m.id === by)?.usesPeriod ?? true;
  return (
    <div className="grid gap-3">
      <nav aria-label="Рейтинг" className="flex flex-wrap gap-2">
        {metrics.map((metric) => (
          <Link key={metric.id} to={href(metric.id, period)} className={tab(metric.id === by)} aria-current={metric.id === by ? "page" : undefined}>
            {metric.label}
          </Link>
        ))}
      </nav>
      {usesPeriod ? (
        <nav aria-label="Период" className="flex flex-wrap gap-2">
          {periods.map((p) => (
            <Link key={p.id} to={href(by, p.id)} className={tab(p.id === period)} aria-current={p.id === period ? "page" : undefined}>
              {p.label}
            </Link>
          ))}
        </nav>
      ) : null}
    </div>
  );
}
