/**
 * Achievements (issue 3, PRODUCT.md Reputation): defined in code, granted once when their
 * rule first holds. STUB: the achievements helper implements it.
 */
import type { Db } from "~/db/client.server";

/** An earned achievement as shown on a profile (the helper defines the fields). */
export interface EarnedAchievementDto {
  id: string;
}

export async function listUserAchievements(_db: Db, _userId: number): Promise<EarnedAchievementDto[]> {
  return [];
}

/** Subscribes the rules to the domain events of `db` (called once at start-up). */
export function registerAchievementRules(_db: Db): void {}
