import { Lock } from "lucide-react";
import type { AchievementStatusDto } from "~/domain/achievements/achievements.server";
import { formatCount, formatDate } from "~/lib/format";
import { cn } from "~/lib/utils";
import { AchievementIcon } from "./achievement-icon";

/**
 * Every achievement for its member (/profile/achievements): earned ones highlighted with
 * the date, locked ones greyed with their condition and, for counts, the progress so far.
 */
export function AchievementGrid({ achievements }: { achievements: AchievementStatusDto[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="achievement-grid">
      {achievements.map((achievement) => (
        <AchievementCard key={achievement.id} achievement={achievement} />
      ))}
    </ul>
  );
}

function AchievementCard({ achievement }: { achievement: AchievementStatusDto }) {
  const earned = achievement.earnedAt !== null;
  const { progress } = achievement;
  return (
    <li
      data-state={earned ? "earned" : "locked"}
      className={cn(
        "flex gap-4 rounded-xl border p-4 shadow-sm",
        earned ? "border-primary/40 bg-primary/5" : "border-border bg-muted/40 text-muted-foreground",
      )}
    >
      <span
        className={cn(
          "relative flex size-12 shrink-0 items-center justify-center rounded-full",
          earned ? "bg-primary text-primary-foreground shadow" : "bg-muted text-muted-foreground grayscale",
        )}
      >
        <AchievementIcon name={achievement.icon} className="size-6" />
        {earned ? null : (
          <span className="absolute -right-1 -bottom-1 flex size-5 items-center justify-center rounded-full border border-border bg-card">
            <Lock aria-hidden className="size-3" />
          </span>
        )}
      </span>
      <div className="grid min-w-0 flex-1 content-start gap-1">
        <h2 className={cn("font-heading font-bold", earned ? "text-foreground" : "text-muted-foreground")}>{achievement.title}</h2>
        <p className="text-sm">
          {earned ? null : <span className="sr-only">Не получено. Условие: </span>}
          {achievement.description}
        </p>
        {earned ? (
          <p className="text-sm font-medium text-primary">Получено {formatDate(achievement.earnedAt!)}</p>
        ) : progress ? (
          <div className="mt-1 grid gap-1">
            <div
              role="progressbar"
              aria-label={`Прогресс: ${achievement.title}`}
              aria-valuemin={0}
              aria-valuemax={progress.target}
              aria-valuenow={progress.current}
              className="h-1.5 overflow-hidden rounded-full bg-border"
            >
              <div className="h-full rounded-full bg-muted-foreground/60" style={{ width: `${(progress.current / progress.target) * 100}%` }} />
            </div>
            <p className="text-xs">
              {formatCount(progress.current)} из {formatCount(progress.target)}
            </p>
          </div>
        ) : null}
      </div>
    </li>
  );
}
