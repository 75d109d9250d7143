import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from "~/components/ui/tooltip";
import type { EarnedAchievementDto } from "~/domain/achievements/achievements.server";
import { formatDate } from "~/lib/format";
import { AchievementIcon } from "./achievement-icon";

/**
 * A member's earned achievements on their public profile (docs/product/content.md#achievements): a badge
 * per achievement, icon and title, newest first; the condition and the date in a tooltip
 * (and for screen readers). Renders nothing when none is earned.
 */
export function AchievementList({ achievements }: { achievements: EarnedAchievementDto[] }) {
  if (achievements.length === 0) return null;
  return (
    <section aria-labelledby="achievements-title" className="grid gap-3" data-testid="achievement-list">
      <h2 id="achievements-title" className="font-heading text-xl font-bold">
        Достижения
      </h2>
      <TooltipProvider>
        <ul className="flex flex-wrap gap-2">
          {achievements.map((achievement) => (
            <li key={achievement.id}>
              <Tooltip>
                <TooltipTrigger asChild>
                  <span
                    tabIndex={0}
                    className="inline-flex items-center gap-2 rounded-full border border-primary/30 bg-primary/10 py-1 pr-3 pl-1.5 text-sm font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    <span className="flex size-7 items-center justify-center rounded-full bg-primary text-primary-foreground">
                      <AchievementIcon name={achievement.icon} className="size-4" />
                    </span>
                    {achievement.title}
                    <span className="sr-only">
                      : {achievement.description}. Получено {formatDate(achievement.earnedAt)}
                    </span>
                  </span>
                </TooltipTrigger>
                <TooltipContent>
                  <p>{achievement.description}</p>
                  <p className="opacity-80">Получено {formatDate(achievement.earnedAt)}</p>
                </TooltipContent>
              </Tooltip>
            </li>
          ))}
        </ul>
      </TooltipProvider>
    </section>
  );
}
