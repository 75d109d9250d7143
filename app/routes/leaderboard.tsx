/** /leaderboard: the top 50 members by reputation, posts, completed deals or deposit, per week, month or all time (docs/product/content.md#leaderboard). */
import type { Route } from "./+types/leaderboard";
import { LeaderboardTable } from "~/components/leaderboard/leaderboard-table";
import { LeaderboardTabs } from "~/components/leaderboard/leaderboard-tabs";
import { getLeaderboard, leaderboardTabs, parseLeaderboardQuery } from "~/domain/leaderboard/leaderboard.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Лидеры", "Самые активные и надёжные участники сообщества: репутация, публикации, сделки через гаранта и депозиты.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseLeaderboardQuery(new URL(request.url).searchParams);
  return { board: await getLeaderboard(context.db, query), tabs: leaderboardTabs() };
}

export default function LeaderboardPage({ loaderData }: Route.ComponentProps) {
  const { board, tabs } = loaderData;
  const metric = tabs.metrics.find((m) => m.id === board.by)!;
  const period = tabs.periods.find((p) => p.id === board.period)!;
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Лидеры</h1>
        <p className="mt-1 text-muted-foreground">{metric.description}</p>
      </div>
      <LeaderboardTabs metrics={tabs.metrics} periods={tabs.periods} by={board.by} period={board.period} />
      <LeaderboardTable
        entries={board.entries}
        heading={board.heading}
        caption={`${metric.label}: ${metric.usesPeriod ? period.label.toLowerCase() : "за всё время"}`}
        empty="За этот период в рейтинге пока никого нет."
      />
    </div>
  );
}
