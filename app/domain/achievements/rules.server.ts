/**
 * The vocabulary achievement definitions are written in (docs/product/content.md#achievements):
 *
 * - a counter is one fact about a member — a number («posts published») or a flag
 *   («verified») — as a scalar SQL expression correlated with the member's `users` row, so
 *   the engine reads every counter of a member in one query;
 * - a rule says when an achievement holds, in terms of one counter;
 * - a trigger names a domain event and the members it concerns, i.e. when to evaluate whom.
 *
 * Nothing here touches the database; the engine (achievements.server.ts) does.
 */
import type { SQL } from "drizzle-orm";
import type { DomainEvent, DomainEventType, EventOf } from "~/lib/events.server";
import type { AchievementIconName } from "./icons";

export interface NumberCounter {
  kind: "number";
  /** A unique name, `[a-z][a-z0-9_]*`: the column alias in the evaluation query. */
  key: string;
  /** A scalar SQL expression yielding an integer, correlated with `"users"."id"`. */
  expression: SQL;
}

export interface FlagCounter {
  kind: "flag";
  key: string;
  /** A scalar SQL expression yielding a boolean, correlated with `"users"."id"`. */
  expression: SQL;
}

export type Counter = NumberCounter | FlagCounter;

/** A numeric counter, e.g. `countOf("posts", sql\`(select count(*) …)\`)`. */
export function countOf(key: string, expression: SQL): NumberCounter {
  return { kind: "number", key: checkKey(key), expression };
}

/** A boolean counter, e.g. `flagOf("verified", sql\`${users.verified}\`)`. */
export function flagOf(key: string, expression: SQL): FlagCounter {
  return { kind: "flag", key: checkKey(key), expression };
}

function checkKey(key: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) throw new Error(`achievement counter key "${key}" must match [a-z][a-z0-9_]*`);
  return key;
}

export type Rule = { kind: "atLeast"; counter: NumberCounter; target: number } | { kind: "isTrue"; counter: FlagCounter };

/** Holds once `counter` reaches `target` (inclusive). */
export function atLeast(counter: NumberCounter, target: number): Rule {
  return { kind: "atLeast", counter, target };
}

/** Holds while `counter` is true. */
export function isTrue(counter: FlagCounter): Rule {
  return { kind: "isTrue", counter };
}

/** The values of every counter of one member, by counter key. */
export type CounterValues = Record<string, number | boolean>;

/** Whether `rule` holds for a member whose counters are `values`. */
export function ruleHolds(rule: Rule, values: CounterValues): boolean {
  const value = values[rule.counter.key];
  return rule.kind === "atLeast" ? Number(value ?? 0) >= rule.target : value === true;
}

/** How far a member is towards a numeric rule (`current` capped at `target`); null for flags. */
export function ruleProgress(rule: Rule, values: CounterValues): { current: number; target: number } | null {
  if (rule.kind !== "atLeast") return null;
  return { current: Math.min(Number(values[rule.counter.key] ?? 0), rule.target), target: rule.target };
}

/** An event type and the members whose achievements it may change. */
export type Trigger = { [T in DomainEventType]: { event: T; members: (event: EventOf<T>) => readonly number[] } }[DomainEventType];

/** `on("post.created", (e) => [e.authorId])`: evaluate the author whenever a post is published. */
export function on<T extends DomainEventType>(event: T, members: (event: EventOf<T>) => readonly number[]): Trigger {
  return { event, members } as Trigger;
}

/** One achievement (docs/product/content.md#achievements): shown as `title` with `icon`; `description` is its condition. */
export interface AchievementDefinition {
  /** Stable id stored in user_achievements.achievement_id: never rename a granted one. */
  id: string;
  /** Russian, short: the badge's name. */
  title: string;
  /** Russian: the condition, shown on locked badges and in tooltips. */
  description: string;
  icon: AchievementIconName;
  rule: Rule;
  /** The events after which the concerned members are evaluated (every rule of theirs is checked). */
  triggers: readonly Trigger[];
}
