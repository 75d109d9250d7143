import { Link } from "react-router";
import { Avatar } from "~/components/ui/avatar";
import { RankBadges } from "~/components/users/rank-badges";
import type { LeaderboardEntryDto } from "~/domain/leaderboard/leaderboard.server";
import { cn } from "~/lib/utils";

const PODIUM = ["bg-amber-400 text-amber-950", "bg-slate-300 text-slate-900", "bg-orange-300 text-orange-950"];

/** The ranked members of /leaderboard: place, avatar, name with rank badges, and the figure. */
export function LeaderboardTable({ entries, heading, caption, empty }: { entries: LeaderboardEntryDto[]; heading: string; caption: string; empty: string }) {
  if (entries.length === 0) {
    return <p className="rounded-xl border border-dashed border-border p-8 text-center text-muted-foreground">{empty}</p>;
  }
  return (
    <div className="overflow-x-auto rounded-xl border border-border bg-card shadow-sm">
      <table className="w-full text-sm" data-testid="leaderboard">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-border text-left text-xs tracking-wide text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="w-16 px-4 py-3 text-center">
              Место
            </th>
            <th scope="col" className="px-4 py-3">
              Участник
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              {heading}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.member.id} className="border-b border-border last:border-0" data-testid="leaderboard-row">
              <td className="px-4 py-3 text-center">
                <span
                  className={cn(
                    "inline-flex size-8 items-center justify-center rounded-full font-heading font-bold",
                    PODIUM[entry.rank - 1] ?? "text-muted-foreground",
                  )}
                >
                  {entry.rank}
                </span>
              </td>
              <td className="px-4 py-3">
                <div className="flex items-center gap-3">
                  <Avatar
                    username={entry.member.username}
                    src={entry.member.image}
                    size="sm"
                    link={`/profile/${entry.member.id}`}
                    overlay={entry.member.ranks.includes("SCAMMER") ? "scam" : undefined}
                  />
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link to={`/profile/${entry.member.id}`} className="font-semibold hover:text-primary" data-testid="leaderboard-name">
                        {entry.member.username}
                      </Link>
                      <RankBadges ranks={entry.member.ranks} />
                    </div>
                    {entry.member.displayName ? <p className="truncate text-xs text-muted-foreground">{entry.member.displayName}</p> : null}
                  </div>
                </div>
              </td>
              <td className="px-4 py-3 text-right font-semibold whitespace-nowrap tabular-nums" data-testid="leaderboard-score" data-score={entry.score}>
                {entry.scoreText}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
