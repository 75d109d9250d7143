/**
 * Follows, blocks and profile walls of the bench data set, as SQL statements.
 */
import { paretoScale } from "./content";
import { joinedBy, memberJoined, streamTime, type Model } from "./model";
import { allocate, distinctMember, pick, rnd, skewed } from "./sql";
import { WALL } from "./texts";

const END = (m: Model) => `timestamptz '${m.end}'`;

/**
 * INSERT follows: shared out over the members (old, active ones follow more); each follows
 * distinct others, the popular old-timers most, from when both had joined.
 */
export function followsSql(m: Model): string {
  const { members, follows } = m.sizes;
  const source = `
    select i as id, power(1 - ${rnd(80, "i")}, ${-1 / 1.5}) / power(i, 0.2) as w, ${members - 1} as cap
    from generate_series(1, ${members}) i`;
  const followee = distinctMember({
    i: "j",
    count: "a.n",
    space: String(members),
    exclude: "a.id",
    offset: `floor(${members - 1} * power(${rnd(81, "a.id")}, 3))`,
    spread: `(0.95 * ${rnd(82, "a.id")})`,
  });
  const since = `greatest(${memberJoined(m, "x.follower_id")}, ${memberJoined(m, "x.followee_id")})`;
  return `
    insert into follows (follower_id, followee_id, created_at)
    select x.follower_id, x.followee_id, ${since} + (${END(m)} - ${since}) * ${rnd(83, "x.follower_id", "x.followee_id")}
    from (
      select a.id as follower_id, ${followee} as followee_id
      from (${allocate(source, { weight: "w", cap: "cap", total: follows, alias: "n" })}) a
      cross join lateral generate_series(1, a.n) j
    ) x`;
}

/**
 * INSERT blocks: a few percent of the members block one to three others. They are dated in
 * the last minute before generation, after everything else, so nothing the app would refuse
 * after a block (a message, a wall entry, a mention) comes later; as blockMember does, the
 * follows between the two are then removed (blocksCleanupSql).
 */
export function blocksSql(m: Model): string {
  const { members, blocks } = m.sizes;
  const source = `
    select i as id, case when ${rnd(84, "i")} < 0.03 then 1 + 2 * ${rnd(85, "i")} else 0 end as w, ${members - 1} as cap
    from generate_series(1, ${members}) i`;
  const blocked = distinctMember({
    i: "j",
    count: "a.n",
    space: String(members),
    exclude: "a.id",
    offset: `floor(${members - 1} * ${rnd(86, "a.id")})`,
    spread: `(0.95 * ${rnd(87, "a.id")})`,
  });
  return `
    insert into blocks (blocker_id, blocked_id, created_at)
    select a.id, ${blocked}, ${END(m)} + make_interval(secs => 59 * ${rnd(88, "a.id", "j")})
    from (${allocate(source, { weight: "w", cap: "cap", total: blocks, alias: "n" })}) a
    cross join lateral generate_series(1, a.n) j`;
}

/** DELETE the follows between blocked members, both ways (app/domain/people/blocks.server.ts). */
export const blocksCleanupSql = [
  `delete from follows f using blocks b where f.follower_id = b.blocker_id and f.followee_id = b.blocked_id`,
  `delete from follows f using blocks b where f.follower_id = b.blocked_id and f.followee_id = b.blocker_id`,
];

/**
 * INSERT wall entries: entry w is written at its place in time, on the wall of a member who
 * had joined (popular ones more), by another member (now and then by the owner); its
 * like_count is decided here and wallLikesSql writes that many likes.
 */
export function wallPostsSql(m: Model): string {
  const { wallPosts, wallLikes } = m.sizes;
  const scale = paretoScale(wallLikes / Math.max(1, wallPosts), 1.3);
  const other = distinctMember({ i: "1", count: "1", space: "x.mw", exclude: "x.owner_id", offset: `floor((x.mw - 1) * power(${rnd(90, "x.w")}, 2.5))`, spread: "0" });
  return `
    insert into wall_posts (id, owner_id, author_id, body, like_count, created_at)
    select y.w, y.owner_id, y.author_id,
           ${pick(WALL, rnd(92, "y.w"))} || case when ${rnd(93, "y.w")} < 0.2 then ' ' || ${pick(WALL, rnd(94, "y.w"))} else '' end,
           least(y.mw - 1, 500, floor(${scale} * (power(1 - ${rnd(95, "y.w")}, ${-1 / 1.3}) - 1)))::int,
           ${streamTime(m, "y.w", wallPosts)}
    from (
      select x.w, x.mw, x.owner_id, case when x.mw = 1 or ${rnd(91, "x.w")} < 0.08 then x.owner_id else ${other} end as author_id
      from (
        select w, mw, ${skewed("mw", rnd(89, "w"), 2)} as owner_id
        from (select w, ${joinedBy(m, "w", wallPosts)} as mw from generate_series(1, ${wallPosts}) w) numbered
      ) x
    ) y
    order by y.w`;
}

/** UPDATE: three owners in ten have pinned their latest entry (one pinned entry per wall). */
export function wallPinsSql(m: Model): string {
  return `
    update wall_posts set pinned_at = created_at + (${END(m)} - created_at) * ${rnd(96, "id")}
    where id in (select max(id) from wall_posts group by owner_id having ${rnd(97, "owner_id")} < 0.3)`;
}

/** INSERT the wall likes from the entries written: like_count distinct members each, never the entry's author. */
export function wallLikesSql(m: Model): string {
  const mw = joinedBy(m, "e.id", m.sizes.wallPosts);
  const liker = distinctMember({
    i: "i",
    count: "e.like_count",
    space: mw,
    exclude: "e.author_id",
    offset: `floor((${mw} - 1) * power(${rnd(98, "e.id")}, 3))`,
    spread: `(0.95 * ${rnd(99, "e.id")})`,
  });
  return `
    insert into wall_post_likes (wall_post_id, user_id, receiver_id, created_at)
    select e.id, ${liker}, e.author_id, e.created_at + (${END(m)} - e.created_at) * power(${rnd(100, "e.id", "i")}, 3)
    from wall_posts e cross join lateral generate_series(1, e.like_count) i
    where e.like_count > 0`;
}
