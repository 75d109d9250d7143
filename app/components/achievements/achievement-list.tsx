import type { EarnedAchievementDto } from "~/domain/achievements/achievements.server";

/** STUB: earned achievements on a profile (the achievements helper fills it). */
export function AchievementList(_props: { achievements: EarnedAchievementDto[] }) {
  return null;
}
