/**
 * Per-day statistics of /admin/stats (docs/product/moderation.md#stats): sign-ups, posts, comments, messages, deals created and
 * completed, transfer volume and deal volume (kopecks), for the last 7, 30 or 90 Moscow days.
 *
 * Staying fast on a million posts: finished days are read from the rollup `stats_daily`; a day
 * missing there is counted once — one range scan per table over an index on its time column
 * (users_created_at_idx, posts_created_at_idx, comments_created_at_idx, messages_created_at_idx,
 * deals_created_at_idx, deals_completed_at_idx, ledger_transfers_created_at_idx), all metrics in
 * one query — and stored. Only the running day is always counted live, over its own rows. So a
 * chart costs at most two queries over today's rows plus the rollup's ≤ 90 × 8 rows, whatever
 * the size of the tables (stats.server.test.ts shows the plans use those indexes).
 * A finished day is frozen when first counted: later soft deletes do not change it.
 */
import { and, gte, lte, sql, type SQL } from "drizzle-orm";
import { executeRows, type Db } from "~/db/client.server";
import { comments, deals, ledgerTransfers, messages, posts, statsDaily, users } from "~/db/schema";
import { STATS_METRICS } from "~/db/schema-moderation";
import { ValidationFailed } from "~/lib/errors";
import { requireAdmin } from "./access.server";
import { MONEY_METRICS, STATS_METRIC_LABELS, type DailyStatsDto, type StatsMetric } from "./types";

/** The windows /admin/stats offers, in days. */
export const STATS_WINDOWS = [7, 30, 90] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];

/** Moscow time is UTC+3 all year (no daylight saving since 2014): days are cut there. */
const MOSCOW_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;

/** The Moscow day (YYYY-MM-DD) of moment `at`. */
export function moscowDay(at: Date): string {
  return new Date(at.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** The moment Moscow day `day` (YYYY-MM-DD) starts. */
export function startOfMoscowDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - MOSCOW_OFFSET_MS);
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** SQL for the Moscow day of timestamptz `column`, as YYYY-MM-DD text, whatever the session's time zone. */
function dayOf(column: SQL | unknown): SQL<string> {
  return sql<string>`to_char((${column} at time zone 'UTC') + interval '3 hours', 'YYYY-MM-DD')`;
}

/**
 * The query of one metric over [from, to): rows (metric, day, value) per Moscow day that has
 * any. Each reads one range of an index on the metric's time column.
 */
export function metricSql(metric: StatsMetric, from: Date, to: Date): SQL {
  const range = (column: unknown) => sql`${column} >= ${from.toISOString()}::timestamptz and ${column} < ${to.toISOString()}::timestamptz`;
  const counted = (table: unknown, column: unknown, extra: SQL = sql`true`, value: SQL = sql`count(*)`) =>
    sql`select ${metric}::text as metric, ${dayOf(column)} as day, (${value})::bigint as value from ${table} where ${range(column)} and ${extra} group by 2`;
  switch (metric) {
    case "signups":
      return counted(users, users.createdAt);
    case "posts":
      return counted(posts, posts.createdAt);
    case "comments":
      return counted(comments, comments.createdAt);
    case "messages":
      return counted(messages, messages.createdAt);
    case "deals_created":
      return counted(deals, deals.createdAt);
    case "deals_completed":
      return counted(deals, deals.closedAt, sql`${deals.state} = 'completed'`);
    case "transfer_volume":
      return counted(
        ledgerTransfers,
        ledgerTransfers.createdAt,
        sql`${ledgerTransfers.kind} in ('transfer', 'hold')`,
        sql`coalesce(sum(${ledgerTransfers.amount}), 0)`,
      );
    case "deal_volume":
      return counted(deals, deals.closedAt, sql`${deals.state} = 'completed'`, sql`coalesce(sum(${deals.amount}), 0)`);
  }
}

/** Every metric per Moscow day over [from, to), in one query: metric → day → value (days without rows are absent). */
async function countRange(db: Db, from: Date, to: Date): Promise<Map<StatsMetric, Map<string, number>>> {
  const union = sql.join(
    STATS_METRICS.map((metric) => sql`(${metricSql(metric, from, to)})`),
    sql` union all `,
  );
  const rows = await executeRows<{ metric: StatsMetric; day: string; value: string | number }>(db, union);
  const byMetric = new Map<StatsMetric, Map<string, number>>(STATS_METRICS.map((m) => [m, new Map()]));
  for (const row of rows) byMetric.get(row.metric)!.set(row.day, Number(row.value));
  return byMetric;
}

/**
 * The per-day series of the last `days` (7, 30 or 90) Moscow days, today included, for admin
 * `actorId`: finished days from the rollup (counting and storing any missing ones first), today
 * live. Volumes are kopecks (`unit` "kopecks", shown in roubles). Throws Forbidden (`not_admin`),
 * ValidationFailed (`invalid_period` for another window).
 */
export async function getDailyStats(db: Db, actorId: number, days: number, now: Date = new Date()): Promise<DailyStatsDto> {
  if (!(STATS_WINDOWS as readonly number[]).includes(days)) {
    throw new ValidationFailed("Выберите период: 7, 30 или 90 дней", { days: ["Выберите 7, 30 или 90 дней"] }, "invalid_period");
  }
  await requireAdmin(db, actorId);
  const today = moscowDay(now);
  const first = addDays(today, -(days - 1));
  const pastDays: string[] = [];
  for (let day = first; day < today; day = addDays(day, 1)) pastDays.push(day);

  const stored = pastDays.length
    ? await db
        .select()
        .from(statsDaily)
        .where(and(gte(statsDaily.day, first), lte(statsDaily.day, addDays(today, -1))))
    : [];
  const values = new Map<StatsMetric, Map<string, number>>(STATS_METRICS.map((m) => [m, new Map()]));
  const complete = new Map<string, number>();
  for (const row of stored) {
    values.get(row.metric)!.set(row.day, row.value);
    complete.set(row.day, (complete.get(row.day) ?? 0) + 1);
  }
  const missing = pastDays.filter((day) => complete.get(day) !== STATS_METRICS.length);
  if (missing.length > 0) {
    const counted = await countRange(db, startOfMoscowDay(missing[0]!), startOfMoscowDay(addDays(missing[missing.length - 1]!, 1)));
    const rows = missing.flatMap((day) => STATS_METRICS.map((metric) => ({ day, metric, value: counted.get(metric)!.get(day) ?? 0 })));
    for (const row of rows) values.get(row.metric)!.set(row.day, row.value);
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insert(statsDaily)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing();
    }
  }
  const live = await countRange(db, startOfMoscowDay(today), startOfMoscowDay(addDays(today, 1)));
  for (const metric of STATS_METRICS) values.get(metric)!.set(today, live.get(metric)!.get(today) ?? 0);

  const allDays = [...pastDays, today];
  return {
    days: days as StatsWindow,
    from: first,
    to: today,
    series: STATS_METRICS.map((metric) => {
      const points = allDays.map((day) => ({ day, value: values.get(metric)!.get(day) ?? 0 }));
      return {
        metric,
        label: STATS_METRIC_LABELS[metric],
        unit: MONEY_METRICS.includes(metric) ? "kopecks" : "count",
        points,
        total: points.reduce((sum, p) => sum + p.value, 0),
      };
    }),
  };
}
