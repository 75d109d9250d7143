/**
 * Posts, comments, likes, views and bookmarks of the bench data set, as SQL statements.
 *
 * First a plan of every post (table bench_plan: author, category, template, time and how
 * many comments, likes and views it gets), then each table is written from the plan, so a
 * post's counters (comment_count, like_count, views) are known before its rows are written
 * and equal them — without updating a million posts afterwards.
 */
import { POSTS_PER_CATEGORY } from "../../app/db/seed/content";
import type { TemplateGroup } from "./templates";
import { activeMember, female, GROWTH, joinedBy, memberJoined, streamTime, username, type Model } from "./model";
import { allocate, distinctMember, pick, rnd, textArray } from "./sql";
import { COMMENTS, LONG_COMMENTS, REPLIES, SEARCH_SENTENCES } from "./texts";

/** The largest number of comments one post gets (a long-running megathread). */
export const MAX_COMMENTS_PER_POST = 2000;
/** The largest number of likes one comment or wall entry gets. */
const MAX_ITEM_LIKES = 500;
/** Share of posts that are articles. */
const ARTICLE_SHARE = 0.05;
/** One comment in this many is deleted (soft: the row stays, comment_count leaves it out). */
const DELETED_EVERY = 50;

const END = (m: Model) => `timestamptz '${m.end}'`;

/**
 * The scale c for which floor(c × (X − 1)), X Pareto-distributed with shape `alpha` and
 * minimum 1, capped at `cap`, averages `mean`: the per-item like counts that give about the
 * wanted total.
 */
export function paretoScale(mean: number, alpha: number, cap = MAX_ITEM_LIKES): number {
  // E[floor(c(X − 1))] = Σ_{j=1..cap} P(X ≥ 1 + j/c) = Σ (1 + j/c)^−alpha, increasing in c.
  const expected = (c: number) => {
    let sum = 0;
    for (let j = 1; j <= cap; j++) sum += Math.pow(1 + j / c, -alpha);
    return sum;
  };
  if (mean <= 0) return 0;
  let low = 1e-6;
  let high = 1e6;
  for (let i = 0; i < 100; i++) {
    const mid = Math.sqrt(low * high);
    if (expected(mid) < mean) low = mid;
    else high = mid;
  }
  return high;
}

/** A like count of an item with Pareto-shaped popularity: mostly 0, now and then dozens. */
function paretoCount(scale: number, u: string, cap: string): string {
  return `least(${cap}, ${MAX_ITEM_LIKES}, floor(${scale} * (power(1 - ${u}, ${-1 / 1.3}) - 1)))::int`;
}

/** SQL of the category chosen by `u` with the demo seed's category mix. */
function categoryOf(u: string): string {
  const total = Object.values(POSTS_PER_CATEGORY).reduce((a, b) => a + b, 0);
  let running = 0;
  const branches = Object.entries(POSTS_PER_CATEGORY).map(([id, weight]) => {
    running += weight;
    return `when ${u} < ${running / total} then ${id}`;
  });
  return `(case ${branches.join(" ")} else 9 end)::smallint`;
}

/** The id of the post benchmarks open with exactly 50 comments: an ordinary post a week old. */
export function fiftyCandidate(m: Model): number {
  const tau = 1 - (7 * 86_400) / m.spanSeconds;
  return Math.max(2, Math.min(m.sizes.posts, Math.round(m.sizes.posts * Math.pow(tau, 1 / GROWTH))));
}

/** Likes of the 50-comment post: 20, or everyone who could like it when fewer had joined. */
export function fiftyLikes(m: Model, fifty: number): number {
  const joined = Math.min(m.sizes.members, 1 + Math.floor((m.sizes.members * fifty) / m.sizes.posts));
  return Math.min(20, joined - 1);
}

/** The kind of post `g` as the plan decides it (to choose the 50-comment post among posts). */
export const kindOf = (g: string) => `case when ${rnd(22, g)} < ${ARTICLE_SHARE} then 'article' else 'post' end`;

/**
 * CREATE the plan: one row per post id 1 … posts. `fifty` gets exactly 50 comments (none
 * deleted); comments, likes and views are shared out exactly (see allocate) by a Pareto
 * popularity, damped for posts younger than a few days.
 */
export function planSql(m: Model, groups: TemplateGroup[], fifty: number): string {
  const { posts, comments, postLikes, postViews } = m.sizes;
  const fiftyComments = Math.min(50, comments);
  const offsets = `array[${groups.map((g) => g.offset).join(", ")}]::int[]`;
  const counts = `array[${groups.map((g) => g.count).join(", ")}]::int[]`;
  const sentence = SEARCH_SENTENCES.map((s, j) => `when (g::bigint * 7919 + ${13 * (j + 1)}) % ${s.every} = 0 then ${j + 1}`).join(" ");
  const base = `
    select g as id, mg, author_id, category_id, kind, created_at, age_s, pop,
           (${offsets})[gi] + floor((${counts})[gi] * ${rnd(24, "g")})::int as template_id,
           case ${sentence} else 0 end as sentence,
           case when g = ${fifty} then 0 when ${rnd(23, "g")} < 0.2 then 0 else least(pop, 1000) * least(1, age_s / 259200) end as w_comments,
           ${MAX_COMMENTS_PER_POST} as cap_comments,
           case when g = ${fifty} then 0 else least(pop, 1000) * least(1, age_s / 86400) + 0.05 end as w_likes,
           mg - 1 as cap_likes,
           1 + least(pop, 1000) * least(1, age_s / 86400) as w_views,
           2147483647 as cap_views
    from (
      select g, mg, author_id, category_id, kind, created_at, extract(epoch from (${END(m)} - created_at)) as age_s,
             power(1 - ${rnd(21, "g")}, ${-1 / 1.6}) as pop,
             1 + (category_id - 1) * 4 + case when kind = 'article' then 2 else 0 end + case when ${female(m, "author_id")} then 1 else 0 end as gi
      from (
        select g, mg, ${activeMember(m, "mg", 20, ["g"])} as author_id, ${categoryOf(rnd(25, "g"))} as category_id,
               ${kindOf("g")} as kind, ${streamTime(m, "g", posts)} as created_at
        from (select g, ${joinedBy(m, "g", posts)} as mg from generate_series(1, ${posts}) g) numbered
      ) chosen
    ) weighed`;
  const withComments = allocate(base, { weight: "w_comments", cap: "cap_comments", total: comments - fiftyComments, alias: "n_comments" });
  const withLikes = allocate(withComments, { weight: "w_likes", cap: "cap_likes", total: Math.max(0, postLikes - fiftyLikes(m, fifty)), alias: "n_likes" });
  const withViews = allocate(withLikes, { weight: "w_views", cap: "cap_views", total: postViews, alias: "n_views" });
  return `
    create unlogged table bench_plan as
    select id, mg, author_id, category_id, kind, template_id, sentence, created_at,
           case when id = ${fifty} then ${fiftyComments} else n_comments end as comments,
           case when id = ${fifty} then 0 else (n_comments + del_h) / ${DELETED_EVERY} end as deleted,
           del_h,
           id = ${fifty} as fifty,
           case when id = ${fifty} then ${fiftyLikes(m, fifty)} else n_likes end as likes,
           n_views as views,
           -- Comments arrive within a window after the post: an hour to a month, longer for long threads.
           least(age_s, (3600 + 2592000 * power(${rnd(26, "id")}, 4)) * (1 + n_comments / 100.0)) as window_s,
           case when ${rnd(27, "id")} < 0.03 then created_at + make_interval(secs => least(172800, age_s) * ${rnd(28, "id")}) end as edited_at
    from (select a.*, floor(${DELETED_EVERY} * ${rnd(29, "a.id")})::int as del_h from (${withViews}) a) planned`;
}

/** The search sentences as an SQL text[] (index = bench_plan.sentence). */
export const sentencesArray = () => textArray(SEARCH_SENTENCES.map((s) => s.sentence));

/** INSERT posts `from` … `to` from the plan and the templates (the search vector is the table's generated column). */
export function postsSql(from: number, to: number): string {
  return `
    insert into posts (id, author_id, category_id, kind, title, body, excerpt, views, like_count, comment_count, created_at, edited_at)
    select p.id, p.author_id, p.category_id, p.kind, t.title,
           t.body || case when p.sentence > 0 then E'\\n\\n' || (${sentencesArray()})[p.sentence] else '' end,
           t.excerpt, p.views, p.likes, p.comments - p.deleted, p.created_at, p.edited_at
    from bench_plan p join bench_templates t on t.id = p.template_id
    where p.id between ${from} and ${to}
    order by p.id`;
}

/**
 * INSERT every comment. Comment k of post g comes at a time within the post's window; about a
 * third answer an earlier comment of the same post (some naming its author, «@name»); one in
 * DELETED_EVERY is deleted. Ids follow time across posts, as the app's serial ids do: they are
 * numbered by time, and a reply finds its parent's id with lag() within its post.
 */
export function commentsSql(m: Model, likeScale: number): string {
  const u = (salt: number) => rnd(salt, "c.post_id", "c.k");
  const body = `case
      when c.parent_k = 0 and ${u(40)} < 0.03 then ${pick(LONG_COMMENTS, u(41))}
      when c.parent_k > 0 then
        case when ${u(42)} < 0.3 then '@' || ${username(m, "c.parent_author")} || ' ' else '' end
        || ${pick(REPLIES, u(43))} || case when ${u(44)} < 0.25 then ' ' || ${pick(REPLIES, u(45))} else '' end
      else ${pick(COMMENTS, u(46))} || case when ${u(47)} < 0.4 then ' ' || ${pick(COMMENTS, u(48))} else '' end
        || case when ${u(49)} < 0.1 then ' ' || ${pick(COMMENTS, u(50))} else '' end
    end`;
  const deleted = `((c.k + c.del_h) % ${DELETED_EVERY} = 0 and not c.fifty)`;
  const windowEnd = `(c.post_at + make_interval(secs => c.window_s))`;
  const deletedAt = `${windowEnd} + (${END(m)} - ${windowEnd}) * ${u(51)}`;
  const staff = `(array[${m.ids.staff.join(", ")}]::int[])[1 + floor(${m.ids.staff.length} * ${u(53)})::int]`;
  return `
    insert into comments (id, post_id, author_id, parent_id, body, like_count, created_at, edited_at, deleted_at, deleted_by_id)
    select c.id, c.post_id, c.author_id, nullif(c.parent_id, 0), ${body},
           ${paretoCount(likeScale, u(54), "c.mg - 1")},
           c.created_at,
           case when ${u(55)} < 0.04 then c.created_at + (${windowEnd} - c.created_at) * (0.5 * ${u(56)}) end,
           case when ${deleted} then ${deletedAt} end,
           case when ${deleted} then case when ${u(52)} < 0.8 then c.author_id else ${staff} end end
    from (
      select n.*,
             case when n.parent_k > 0 then lag(n.id, n.k - n.parent_k) over w else 0 end as parent_id,
             case when n.parent_k > 0 then lag(n.author_id, n.k - n.parent_k) over w end as parent_author
      from (
        select s.*, row_number() over (order by s.created_at, s.post_id, s.k) as id
        from (
          select p.id as post_id, k, p.mg, p.created_at as post_at, p.window_s, p.del_h, p.fifty,
                 p.created_at + make_interval(secs => p.window_s * power(k::float8 / (p.comments + 1), 1.5)) as created_at,
                 case when ${rnd(30, "p.id", "k")} < 0.12 then p.author_id else ${activeMember(m, "p.mg", 31, ["p.id", "k"])} end as author_id,
                 case when k > 1 and ${rnd(32, "p.id", "k")} < 0.35 then k - 1 - floor((k - 1) * power(${rnd(33, "p.id", "k")}, 2))::int else 0 end as parent_k
          from bench_plan p cross join lateral generate_series(1, p.comments) k
        ) s
      ) n
      window w as (partition by n.post_id order by n.k)
    ) c
    order by c.id`;
}

/** INSERT the post likes: `likes` distinct members per post, never its author, who had joined by then. */
export function postLikesSql(m: Model): string {
  const liker = distinctMember({
    i: "i",
    count: "p.likes",
    space: "p.mg",
    exclude: "p.author_id",
    offset: `floor((p.mg - 1) * power(${rnd(60, "p.id")}, 3))`,
    spread: `(0.95 * ${rnd(61, "p.id")})`,
  });
  return `
    insert into post_likes (post_id, user_id, receiver_id, created_at)
    select p.id, ${liker}, p.author_id, p.created_at + (${END(m)} - p.created_at) * power(${rnd(62, "p.id", "i")}, 3)
    from bench_plan p cross join lateral generate_series(1, p.likes) i`;
}

/** INSERT the comment likes from the comments written: like_count distinct members each, never the comment's author. */
export function commentLikesSql(m: Model): string {
  const liker = distinctMember({
    i: "i",
    count: "c.like_count",
    space: "p.mg",
    exclude: "c.author_id",
    offset: `floor((p.mg - 1) * power(${rnd(63, "c.id")}, 3))`,
    spread: `(0.95 * ${rnd(64, "c.id")})`,
  });
  return `
    insert into comment_likes (comment_id, user_id, receiver_id, created_at)
    select c.id, ${liker}, c.author_id, c.created_at + (coalesce(c.deleted_at, ${END(m)}) - c.created_at) * power(${rnd(65, "c.id", "i")}, 3)
    from comments c join bench_plan p on p.id = c.post_id cross join lateral generate_series(1, c.like_count) i
    where c.like_count > 0`;
}

/**
 * INSERT post_views: `views` rows per post, one per visitor and Moscow day as the app records
 * them — `u:{id}` for members (two in five, distinct), `v:{hash}` for visitors.
 */
export function postViewsSql(m: Model): string {
  const member = distinctMember({
    i: "i",
    count: "p.members",
    space: "p.mg",
    exclude: "0",
    offset: `floor(p.mg * power(${rnd(66, "p.id")}, 2))`,
    spread: `(0.95 * ${rnd(67, "p.id")})`,
  });
  const visitor = `'v:' || left(translate(encode(sha256(convert_to(p.id || ':' || i, 'UTF8')), 'base64'), '+/', '-_'), 22)`;
  return `
    insert into post_views (post_id, visitor_key, day)
    select p.id, case when i <= p.members then 'u:' || ${member} else ${visitor} end,
           ((p.created_at + (${END(m)} - p.created_at) * power(${rnd(68, "p.id", "i")}, 3)) at time zone 'Europe/Moscow')::date
    from (select id, mg, created_at, views, least(mg, floor(views * 0.4)::int) as members from bench_plan) p
    cross join lateral generate_series(1, p.views) i`;
}

/** INSERT bookmarks: shared out over a third of the members (active ones more), distinct posts each. */
export function bookmarksSql(m: Model): string {
  const { members, posts, bookmarks } = m.sizes;
  const source = `
    select i as id, case when ${rnd(70, "i")} < 0.3 then power(1 - ${rnd(71, "i")}, ${-1 / 1.5}) / power(i, 0.3) else 0 end as w, ${posts} as cap
    from generate_series(1, ${members}) i`;
  const post = distinctMember({
    i: "j",
    count: "b.n",
    space: String(posts),
    exclude: "0",
    offset: `floor(${posts} * (1 - power(${rnd(72, "b.id")}, 0.5)))`,
    spread: `(0.95 * ${rnd(73, "b.id")})`,
  });
  const since = `greatest(${streamTime(m, "x.post_id", posts)}, ${memberJoined(m, "x.user_id")})`;
  return `
    insert into bookmarks (user_id, post_id, created_at)
    select x.user_id, x.post_id, ${since} + (${END(m)} - ${since}) * ${rnd(74, "x.user_id", "x.post_id")}
    from (
      select b.id as user_id, ${post} as post_id
      from (${allocate(source, { weight: "w", cap: "cap", total: bookmarks, alias: "n" })}) b
      cross join lateral generate_series(1, b.n) j
    ) x`;
}
