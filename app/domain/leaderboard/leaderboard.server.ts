/**
 * The leaderboard (issue 3, docs/product/content.md#leaderboard): the top 50 members by one metric
 * (metrics.server.ts) over a period — the last 7 days, the last 30 days or all time,
 * rolling windows ending now. One query whatever the list length: the metric's scores
 * joined with the members.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { ranksOf, type UserRefDto } from "../users/users.server";
import { LEADERBOARD_METRICS, type LeaderboardMetric } from "./metrics.server";

export const LEADERBOARD_SIZE = 50;

export const LEADERBOARD_PERIODS = [
  { id: "week", label: "За неделю", days: 7 },
  { id: "month", label: "За месяц", days: 30 },
  { id: "all", label: "За всё время", days: null },
] as const;

export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number]["id"];

export const DEFAULT_LEADERBOARD_PERIOD: LeaderboardPeriod = "all";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LeaderboardQuery {
  /** A metric id of LEADERBOARD_METRICS. */
  by: string;
  period: LeaderboardPeriod;
}

export interface LeaderboardEntryDto {
  /** 1-based position; ties are already broken, so ranks are 1, 2, 3… */
  rank: number;
  member: UserRefDto;
  score: number;
  /** The figure as shown, e.g. «12 лайков». */
  scoreText: string;
}

export interface LeaderboardDto {
  by: string;
  /** "all" for a metric that ignores periods. */
  period: LeaderboardPeriod;
  heading: string;
  entries: LeaderboardEntryDto[];
}

/** The tabs of /leaderboard: metrics (with whether periods apply) and periods. */
export function leaderboardTabs() {
  return {
    metrics: LEADERBOARD_METRICS.map((m) => ({ id: m.id, label: m.label, description: m.description, usesPeriod: m.usesPeriod })),
    periods: LEADERBOARD_PERIODS.map((p) => ({ id: p.id, label: p.label })),
  };
}

/**
 * Reads `by` and `period` from a query string. Unknown or missing values fall back to the
 * first metric and to all time, so a typo in the address never becomes an error page.
 */
export function parseLeaderboardQuery(search: URLSearchParams): LeaderboardQuery {
  const by = search.get("by");
  const period = search.get("period");
  return {
    by: LEADERBOARD_METRICS.some((m) => m.id === by) ? by! : LEADERBOARD_METRICS[0]!.id,
    period: LEADERBOARD_PERIODS.find((p) => p.id === period)?.id ?? DEFAULT_LEADERBOARD_PERIOD,
  };
}

function findMetric(id: string): LeaderboardMetric {
  return LEADERBOARD_METRICS.find((m) => m.id === id) ?? LEADERBOARD_METRICS[0]!;
}

/**
 * The top LEADERBOARD_SIZE members by metric `query.by` over `query.period` ending at `now`.
 * Order: score (highest first), then who reached it first, then the older account (lower id).
 * Members scoring 0 are left out. One query. An unknown metric id falls back to the first.
 */
export async function getLeaderboard(db: Db, query: LeaderboardQuery, now: Date = new Date()): Promise<LeaderboardDto> {
  const metric = findMetric(query.by);
  const period = metric.usesPeriod ? query.period : "all";
  const days = LEADERBOARD_PERIODS.find((p) => p.id === period)?.days ?? null;
  const since = days === null ? null : new Date(now.getTime() - days * DAY_MS);
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      image: users.image,
      role: users.role,
      verified: users.verified,
      scammer: users.scammer,
      score: sql<number>`scores.score`.mapWith(Number),
    })
    .from(sql`(${metric.scores(since)}) as scores`)
    .innerJoin(users, eq(users.id, sql`scores.user_id`))
    .where(sql`scores.score > 0`)
    .orderBy(sql`scores.score desc`, sql`scores.reached_at asc nulls last`, asc(users.id))
    .limit(LEADERBOARD_SIZE);
  return {
    by: metric.id,
    period,
    heading: metric.heading,
    entries: rows.map((row, index) => ({
      rank: index + 1,
      member: { id: row.id, username: row.username, displayName: row.displayName, image: row.image, ranks: ranksOf(row) },
      score: row.score,
      scoreText: metric.format(row.score),
    })),
  };
}
