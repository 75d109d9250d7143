/**
 * The model behind the bench data set: sizes, the known accounts, time and the members'
 * names, each as an SQL expression of row keys, shared by every step of the generator.
 *
 * Time: the forum grew for `spanDays` up to `end` (a minute before generation). Every stream
 * of rows — members, posts, wall entries, groups — is ordered by time like the app's serial
 * ids: row n of count is at τ = (n / count)^GROWTH of the span, so more happens lately.
 * Members join in id order the same way, so the members who had joined by post g are exactly
 * ids 1 … 1 + ⌊members × g / posts⌋: a post's author, commenters and likers are picked among
 * them, and low ids — the old-timers — are picked most (the few very active members).
 */
import { pick, rnd, skewed } from "./sql";
import { CYRILLIC_NICKS, FEMALE_FIRST_NAMES, LAST_NAMES, LATIN_NICKS, MALE_FIRST_NAMES } from "./texts";

/** How many rows of each kind the data set has (issue 12's figures by default). */
export interface BenchSizes {
  members: number;
  posts: number;
  /** Exactly this many comments, replies and deleted ones included. */
  comments: number;
  /** Exactly this many post likes (fewer only if posts have too few possible likers). */
  postLikes: number;
  /** About this many comment likes. */
  commentLikes: number;
  /** Exactly this many post_views rows (one per visitor per post per day); posts.views sums them. */
  postViews: number;
  wallPosts: number;
  /** About this many wall likes. */
  wallLikes: number;
  /** Follows asked for; blocking removes the few between blocked pairs, as the app does. */
  follows: number;
  bookmarks: number;
  blocks: number;
  personalConversations: number;
  groups: number;
  /** Exactly this many messages, a tenth of them in the public conversation. */
  messages: number;
}

export const DEFAULT_SIZES: BenchSizes = {
  members: 100_000,
  posts: 1_000_000,
  comments: 5_000_000,
  postLikes: 3_000_000,
  commentLikes: 2_000_000,
  postViews: 3_000_000,
  wallPosts: 200_000,
  wallLikes: 100_000,
  follows: 1_000_000,
  bookmarks: 300_000,
  blocks: 5_000,
  personalConversations: 50_000,
  groups: 2_000,
  messages: 1_000_000,
};

/** The environment variable of each size (BENCH_MEMBERS, BENCH_POST_LIKES, …). */
export const SIZE_VARIABLES: Record<keyof BenchSizes, string> = {
  members: "BENCH_MEMBERS",
  posts: "BENCH_POSTS",
  comments: "BENCH_COMMENTS",
  postLikes: "BENCH_POST_LIKES",
  commentLikes: "BENCH_COMMENT_LIKES",
  postViews: "BENCH_POST_VIEWS",
  wallPosts: "BENCH_WALL_POSTS",
  wallLikes: "BENCH_WALL_LIKES",
  follows: "BENCH_FOLLOWS",
  bookmarks: "BENCH_BOOKMARKS",
  blocks: "BENCH_BLOCKS",
  personalConversations: "BENCH_PERSONAL_CONVERSATIONS",
  groups: "BENCH_GROUPS",
  messages: "BENCH_MESSAGES",
};

/** Sizes from the environment over the defaults; throws on a value that is not a whole number ≥ 0. */
export function sizesFromEnv(env: NodeJS.ProcessEnv = process.env, base: BenchSizes = DEFAULT_SIZES): BenchSizes {
  const sizes = { ...base };
  for (const [key, variable] of Object.entries(SIZE_VARIABLES) as [keyof BenchSizes, string][]) {
    const raw = env[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw.replace(/_/g, ""));
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${variable} must be a whole number ≥ 0, not «${raw}»`);
    sizes[key] = value;
  }
  if (sizes.members < 20) throw new Error("BENCH_MEMBERS must be at least 20");
  if (sizes.posts < 100) throw new Error("BENCH_POSTS must be at least 100");
  return sizes;
}

/** The growth exponent of every stream (see the file comment). */
export const GROWTH = 0.6;

/** The accounts benchmarks sign in with; their passwords are the demo seed's (README). */
export interface KnownIds {
  admin: number;
  /** dark_knight77, a moderator. */
  moderator: number;
  /** Admin and moderators: who may delete others' comments. */
  staff: number[];
  /** demo, an ordinary, fairly active member. */
  demo: number;
}

export interface Model {
  sizes: BenchSizes;
  /** ISO time of the latest row; everything written is at or before it. */
  end: string;
  spanSeconds: number;
  ids: KnownIds;
}

export function makeModel(sizes: BenchSizes, now = new Date(), spanDays = 730): Model {
  const end = new Date(Math.floor(now.getTime() / 1000) * 1000 - 60_000);
  return {
    sizes,
    end: end.toISOString(),
    spanSeconds: spanDays * 86_400,
    ids: { admin: 1, moderator: 2, staff: [1, 2, 3, 4, 5, 6], demo: Math.min(1000, Math.max(7, Math.floor(sizes.members / 10))) },
  };
}

/** The time at fraction `tau` (an expression in [0, 1]) of the span. */
export function at(m: Model, tau: string): string {
  return `(timestamptz '${m.end}' - make_interval(secs => ${m.spanSeconds}::float8 * (1 - (${tau}))))`;
}

/** The time of row `n` (expression) of a stream of `count` rows. */
export function streamTime(m: Model, n: string, count: number): string {
  return at(m, `power((${n})::float8 / ${Math.max(1, count)}, ${GROWTH})`);
}

/** The members who had joined by row `n` of a stream of `count`: ids 1 … this. */
export function joinedBy(m: Model, n: string, count: number): string {
  return `least(${m.sizes.members}, 1 + (${m.sizes.members}::bigint * (${n}) / ${Math.max(1, count)})::int)`;
}

/** The members who had joined by time `time` (expression): ids 1 … this. */
export function joinedByTime(m: Model, time: string): string {
  const tau = `greatest(0, 1 - extract(epoch from (timestamptz '${m.end}' - (${time}))) / ${m.spanSeconds})`;
  return `least(${m.sizes.members}, 1 + floor(${m.sizes.members} * power(${tau}, ${1 / GROWTH}))::int)`;
}

/** When member `id` joined: a second before their place in the stream, so "joined by" always holds. */
export function memberJoined(m: Model, id: string): string {
  return `(${at(m, `power(((${id}) - 1)::float8 / ${m.sizes.members}, ${GROWTH})`)} - interval '1 second')`;
}

/**
 * An author among members 1 … `space`, the old-timers far more often (`power` > 1), except
 * that the staff (admin and moderators, the lowest ids) keep only a fifth of what that would
 * give them: they moderate more than they post. `salt` picks three independent numbers.
 */
export function activeMember(m: Model, space: string, salt: number, key: string[], power = 2.5): string {
  const first = skewed(space, rnd(salt, ...key), power);
  const staffMax = Math.max(...m.ids.staff);
  return `(case when ${first} <= ${staffMax} and ${rnd(salt + 1000, ...key)} < 0.8 then ${skewed(space, rnd(salt + 2000, ...key), 1)} else ${first} end)`;
}

/** Writes in the feminine (names, gendered verbs of post templates): about 30 % of members. */
export function female(m: Model, id: string): string {
  const fixed = [m.ids.admin, m.ids.moderator, m.ids.demo, ...m.ids.staff].join(", ");
  return `((${id}) not in (${fixed}) and ${rnd(11, id)} < 0.3)`;
}

/** Member `id`'s username: a nickname stem, an underscore and the id (unique by the id), or a known account's. */
export function username(m: Model, id: string): string {
  const stem = `case when ${rnd(12, id)} < 0.8
      then case when ${rnd(13, id)} < 0.3 then initcap(${pick(LATIN_NICKS, rnd(14, id))}) else ${pick(LATIN_NICKS, rnd(14, id))} end
      else ${pick(CYRILLIC_NICKS, rnd(14, id))} end`;
  return `(case (${id}) when ${m.ids.admin} then 'admin' when ${m.ids.moderator} then 'dark_knight77' when ${m.ids.demo} then 'demo'
      else ${stem} || '_' || (${id}) end)`;
}

/** Member `id`'s display name («Мария Соколова»), or a known account's. */
export function displayName(m: Model, id: string): string {
  const lastIndex = `1 + floor(${LAST_NAMES.length} * ${rnd(16, id)})::int`;
  const male = `${pick(MALE_FIRST_NAMES, rnd(15, id))} || ' ' || (${arrayOf(LAST_NAMES.map((n) => n[0]))})[${lastIndex}]`;
  const femaleName = `${pick(FEMALE_FIRST_NAMES, rnd(15, id))} || ' ' || (${arrayOf(LAST_NAMES.map((n) => n[1]))})[${lastIndex}]`;
  return `(case (${id}) when ${m.ids.admin} then 'Администрация' when ${m.ids.moderator} then 'Дмитрий Ковалёв'
      when ${m.ids.demo} then 'Демо Пользователь' else case when ${female(m, id)} then ${femaleName} else ${male} end end)`;
}

const arrayOf = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(", ")}]::text[]`;
