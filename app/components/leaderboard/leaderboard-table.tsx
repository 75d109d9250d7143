import { Link } from "~/components/ui/link";
import { MemberAvatar, TrustHoverCard } from "~/components/users/trust-card";
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
            <th scope="col" className="w-10 px-2 py-3 text-center sm:w-16 sm:px-4">
              <span aria-hidden className="sm:hidden">
                №
              </span>
              <span className="max-sm:sr-only">Место</span>
            </th>
            <th scope="col" className="px-2 py-3 sm:px-4">
              Участник
            </th>
            <th scope="col" className="px-2 py-3 text-right sm:px-4">
              {heading}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.member.id} className="border-b border-border last:border-0" data-testid="leaderboard-row">
              <td className="px-2 py-3 text-center sm:px-4">
                <span
                  className={cn(
                    "inline-flex size-8 items-center justify-center rounded-full font-heading font-bold",
                    PODIUM[entry.rank - 1] ?? "text-muted-foreground",
                  )}
                >
                  {entry.rank}
                </span>
              </td>
              <td className="px-2 py-3 sm:px-4">
                <div className="flex items-center gap-2 sm:gap-3">
                  <MemberAvatar member={entry.member} />
                  {/* On a 320 px phone long names break and the display name wraps, rather than push the figure out. */}
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <TrustHoverCard member={entry.member}>
                        <Link
                          to={`/profile/${entry.member.id}`}
                          className="tap-target font-semibold [overflow-wrap:anywhere] hover:text-primary"
                          data-testid="leaderboard-name"
                        >
                          {entry.member.username}
                        </Link>
                      </TrustHoverCard>
                      <RankBadges ranks={entry.member.ranks} />
                    </div>
                    {entry.member.displayName ? <p className="text-xs text-muted-foreground sm:truncate">{entry.member.displayName}</p> : null}
                  </div>
                </div>
              </td>
              {/* On a phone the figure may break before its unit («132 / лайка») rather than be cut off. */}
              <td
                className="px-2 py-3 text-right font-semibold tabular-nums sm:px-4 sm:whitespace-nowrap"
                data-testid="leaderboard-score"
                data-score={entry.score}
              >
                {entry.scoreText}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
