/**
 * Achievements (issue 3, docs/product/content.md#achievements): defined in code (definitions.server.ts),
 * granted once when their rule first holds, with the date earned.
 *
 * The engine: evaluating a member reads every counter the definitions use, plus the ids the
 * member already holds, in ONE query; the rules are then checked in memory and whatever newly
 * holds is inserted in one statement (`on conflict do nothing`, so concurrent evaluations
 * and repeated events grant each achievement exactly once — the primary key
 * (user_id, achievement_id) is the guard). Evaluations run from event subscribers, after
 * the action's transaction has committed, and never fail the action.
 */
import { desc, eq, sql, type SQL } from "drizzle-orm";
import { isValidId } from "~/lib/ids";
import type { Db } from "~/db/client.server";
import { userAchievements, users } from "~/db/schema";
import { eventBus, type DomainEvent, type DomainEventType } from "~/lib/events.server";
import { ACHIEVEMENTS } from "./definitions.server";
import type { AchievementIconName } from "./icons";
import { ruleHolds, ruleProgress, type AchievementDefinition, type Counter, type CounterValues, type Trigger } from "./rules.server";

/** An earned achievement as shown on a profile. `earnedAt` is an ISO time. */
export interface EarnedAchievementDto {
  id: string;
  title: string;
  description: string;
  icon: AchievementIconName;
  earnedAt: string;
}

/**
 * One achievement as its member sees it on /profile/achievements: earned (`earnedAt` set)
 * or locked, with progress towards a numeric rule (`current` capped at `target`).
 */
export interface AchievementStatusDto {
  id: string;
  title: string;
  description: string;
  icon: AchievementIconName;
  earnedAt: string | null;
  progress: { current: number; target: number } | null;
}

type Definitions = readonly AchievementDefinition[];

/** The distinct counters of `definitions`, by key; a key used by two different counters is a bug. */
const countersCache = new WeakMap<Definitions, Counter[]>();
function countersOf(definitions: Definitions): Counter[] {
  let counters = countersCache.get(definitions);
  if (counters) return counters;
  const byKey = new Map<string, Counter>();
  for (const { id, rule } of definitions) {
    const seen = byKey.get(rule.counter.key);
    if (seen && seen !== rule.counter) throw new Error(`achievement ${id}: counter key "${rule.counter.key}" is used by another counter`);
    byKey.set(rule.counter.key, rule.counter);
  }
  counters = [...byKey.values()];
  countersCache.set(definitions, counters);
  return counters;
}

/** Every counter of member `userId` and the ids they hold, in one query; null for an unknown member. */
async function readMember(db: Db, userId: number, definitions: Definitions): Promise<{ values: CounterValues; earned: Set<string> } | null> {
  const fields: Record<string, SQL.Aliased<unknown>> = {};
  for (const counter of countersOf(definitions)) {
    const expression = counter.kind === "number" ? sql`${counter.expression}`.mapWith(Number) : sql`${counter.expression}`.mapWith(Boolean);
    fields[`c_${counter.key}`] = expression.as(`c_${counter.key}`);
  }
  const earned = sql<string[]>`array(select ${userAchievements.achievementId} from ${userAchievements} where ${userAchievements.userId} = ${users.id})`;
  const [row]: Record<string, unknown>[] = await db
    .select({ ...fields, earned: earned.as("earned") })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  const values: CounterValues = {};
  for (const counter of countersOf(definitions)) values[counter.key] = row[`c_${counter.key}`] as number | boolean;
  return { values, earned: new Set(row.earned as string[]) };
}

/**
 * Checks every rule for member `userId` and grants what newly holds, dated now.
 * Returns the ids granted by this call (empty when nothing new, or for an unknown member).
 * One query, two when something is granted. Safe to call any number of times, concurrently
 * too: an achievement is never granted twice. `definitions` defaults to ACHIEVEMENTS.
 */
export async function evaluateAchievements(db: Db, userId: number, definitions: Definitions = ACHIEVEMENTS): Promise<string[]> {
  if (!isValidId(userId)) return [];
  const member = await readMember(db, userId, definitions);
  if (!member) return [];
  const due = definitions.filter((d) => !member.earned.has(d.id) && ruleHolds(d.rule, member.values));
  if (due.length === 0) return [];
  const granted = await db
    .insert(userAchievements)
    .values(due.map((d) => ({ userId, achievementId: d.id })))
    .onConflictDoNothing()
    .returning({ id: userAchievements.achievementId });
  return granted.map((g) => g.id);
}

const registered = new WeakMap<Db, WeakSet<Definitions>>();

/**
 * Subscribes the rules to the domain events of `db` (called once at start-up from
 * subscribers.server.ts): one subscription per event type any trigger names; each event
 * evaluates every member its triggers name, once. Calling it again for the same `db` and
 * `definitions` does nothing. Returns a function that unsubscribes (tests).
 */
export function registerAchievementRules(db: Db, definitions: Definitions = ACHIEVEMENTS): () => void {
  const done = registered.get(db) ?? new WeakSet<Definitions>();
  registered.set(db, done);
  if (done.has(definitions)) return () => {};
  done.add(definitions);

  const byEvent = new Map<DomainEventType, Trigger[]>();
  for (const definition of definitions) {
    for (const trigger of definition.triggers) {
      const list = byEvent.get(trigger.event) ?? [];
      if (!list.includes(trigger)) list.push(trigger);
      byEvent.set(trigger.event, list);
    }
  }
  const bus = eventBus(db);
  const unsubscribes = [...byEvent].map(([type, triggers]) =>
    bus.subscribe(type, async (event: DomainEvent) => {
      const members = new Set(triggers.flatMap((t) => (t.members as (e: DomainEvent) => readonly number[])(event)));
      for (const userId of members) await evaluateAchievements(db, userId, definitions);
    }),
  );
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    done.delete(definitions);
  };
}

/**
 * The achievements member `userId` has earned, newest first (same instant: the later
 * definition first), with title, description, icon and `earnedAt` (ISO). One query.
 * Ids no longer defined are left out. Empty for an unknown member.
 */
export async function listUserAchievements(db: Db, userId: number, definitions: Definitions = ACHIEVEMENTS): Promise<EarnedAchievementDto[]> {
  if (!isValidId(userId)) return [];
  const rows = await db
    .select({ id: userAchievements.achievementId, earnedAt: userAchievements.earnedAt })
    .from(userAchievements)
    .where(eq(userAchievements.userId, userId))
    .orderBy(desc(userAchievements.earnedAt));
  const order = new Map(definitions.map((d, index) => [d.id, index]));
  return rows
    .filter((row) => order.has(row.id))
    .sort((a, b) => b.earnedAt.getTime() - a.earnedAt.getTime() || order.get(b.id)! - order.get(a.id)!)
    .map((row) => {
      const definition = definitions[order.get(row.id)!]!;
      return { ...describe(definition), earnedAt: row.earnedAt.toISOString() };
    });
}

/**
 * Every defined achievement in definition order, with member `userId`'s state: `earnedAt`
 * (ISO) when earned, else null and, for numeric rules, the progress. Two queries (the
 * counters and the earned dates). Listing grants nothing: call evaluateAchievements first.
 */
export async function listAchievementStatus(db: Db, userId: number, definitions: Definitions = ACHIEVEMENTS): Promise<AchievementStatusDto[]> {
  const [member, earned] = await Promise.all([isValidId(userId) ? readMember(db, userId, definitions) : null, listUserAchievements(db, userId, definitions)]);
  const earnedAt = new Map(earned.map((e) => [e.id, e.earnedAt]));
  return definitions.map((definition) => {
    const at = earnedAt.get(definition.id) ?? null;
    return {
      ...describe(definition),
      earnedAt: at,
      progress: at === null && member ? ruleProgress(definition.rule, member.values) : null,
    };
  });
}

function describe(definition: AchievementDefinition) {
  return { id: definition.id, title: definition.title, description: definition.description, icon: definition.icon };
}
