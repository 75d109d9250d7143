/**
 * One series of /admin/stats (docs/product/moderation.md#stats) as a bar chart (recharts), drawn
 * in the browser once the page is hydrated; the table beside it (StatsTable) carries the same
 * numbers and is what a reader without JavaScript sees.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ClientOnly } from "remix-utils/client-only";
import { formatKopecks } from "~/domain/ledger/money";
import type { StatsSeries } from "~/domain/moderation/types";
import { formatCount } from "~/lib/format";

/** «25.11» for «2026-11-25». */
export function shortDay(day: string): string {
  return `${day.slice(8, 10)}.${day.slice(5, 7)}`;
}

/** A value of the series as text: roubles for the volumes, a count otherwise. */
export function formatStatsValue(series: Pick<StatsSeries, "unit">, value: number): string {
  return series.unit === "kopecks" ? formatKopecks(value) : formatCount(value);
}

export function StatsChart({ series }: { series: StatsSeries }) {
  const data = series.points.map((p) => ({ day: shortDay(p.day), value: series.unit === "kopecks" ? p.value / 100 : p.value }));
  return (
    <div className="h-56 w-full" data-testid="stats-chart">
      <ClientOnly fallback={<p className="text-sm text-muted-foreground">График появится с JavaScript; цифры — в таблице.</p>}>
        {() => (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--color-border)" />
              <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={12} />
              <YAxis tick={{ fontSize: 11 }} allowDecimals={series.unit === "kopecks"} width={56} />
              <Tooltip
                formatter={(value) => [series.unit === "kopecks" ? formatKopecks(Math.round(Number(value) * 100)) : formatCount(Number(value)), series.label]}
              />
              <Bar dataKey="value" name={series.label} fill="var(--color-primary)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </ClientOnly>
    </div>
  );
}
