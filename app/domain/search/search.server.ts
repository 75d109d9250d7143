/**
 * Full-text search of posts in Russian (docs/product/content.md#search; issue 3 item 6).
 *
 * posts.search_vector is a generated column: the title weighs A and the body B under the
 * 'russian' configuration, so «сделки» finds «сделка» (both stem to «сделк») and a match in
 * a title outranks one in a body. The GIN index posts_search_idx serves the `@@` match for rare
 * words; for common ones the newest posts are walked through posts_created_at_idx. A search costs
 * two queries: the planner's estimate, then the newest matches ranked into the page with its
 * authors and highlights (docs/decisions/0053); a category search of a word the planner expects
 * often also tests the category's newest posts first (two more, side by side; docs/decisions/0052).
 * The index also holds each post's month, so a query of several words with thousands of matches
 * is looked for in recent months first (one more query when they hold too few; docs/decisions/0060).
 */
import { and, count, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { executeRows, type Db } from "~/db/client.server";
import { categories, posts, postSearchDocument, users } from "~/db/schema";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { publicPostSql } from "../moderation/visibility.server";
import { toPostSummaryDto, type PostSummaryDto } from "../posts/posts.server";
import { highlightToHtml, MATCH_START, MATCH_STOP, stripMarkdownFragment } from "./highlight";
import { foldLookalikes, normalizeQuery, splitPrefix } from "./query";

/** Every post column a list needs: no body (up to 50 000 characters) and no search vector. */
const { searchVector: _searchVector, body: _body, ...listColumns } = getTableColumns(posts);

/** A post found by search: the summary of a feed plus highlighted title and snippet HTML. */
export interface PostSearchHitDto extends PostSummaryDto {
  /** The title, HTML-escaped, with matched words in <mark>. */
  titleHtml: string;
  /** Up to two fragments of the body around the matches, HTML-escaped, matches in <mark>. */
  snippetHtml: string;
  /** ts_rank_cd of the match (higher is better); only meaningful within one query. */
  rank: number;
}

export interface PostSearchResult extends Page<PostSearchHitDto> {
  /** The query searched for, after normalizeQuery. */
  q: string;
  /**
   * False when the query held no searchable word (only stop-words such as «и в на», or only
   * punctuation): the page explains that instead of "nothing found".
   */
  searchable: boolean;
}

export interface SearchPostsQuery {
  q: string;
  categoryId?: number;
}

/** Markers go around matches; they are stripped from the text first, so only ours remain. */
const MARKERS = MATCH_START + MATCH_STOP;
const SNIPPET_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_STOP}, MaxWords=28, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;
const TITLE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_STOP}, HighlightAll=true`;

/**
 * The most matches a search ranks: the newest CANDIDATES matches, best first
 * (docs/decisions/0024-search-ranks-the-newest-matches.md). Ranking all 300 000 posts that hold
 * «цена» took 3 s at a million posts; ranking the newest thousand takes milliseconds.
 */
export const CANDIDATES = 1000;
/**
 * Above this many estimated matches the newest ones are found by walking the posts newest first
 * and testing each, instead of collecting every match from the GIN index and sorting them by date:
 * the walk reads about CANDIDATES ÷ share rows, the index every match (docs/decisions/0024).
 */
const WALK_ABOVE_MATCHES = 30_000;
/**
 * A category search the planner expects more matches than this for, but not enough to walk, first
 * tests the category's newest PROBE_ROWS posts. A word and its category go together (people search
 * «кошельки» in the wallets' category), which the planner cannot know: it takes them as
 * independent. On the bench set it expected 7 418 such matches where 48 421 exist, and collecting
 * them all from the index took half a second (docs/decisions/0052).
 */
const PROBE_ABOVE_MATCHES = 2_000;
const PROBE_ROWS = 500;
/**
 * Above this many estimated matches a query of several words asks the index for the matches of
 * recent months first (after the walk, above 30 000), and for those of every month only if they
 * were too few (docs/decisions/0060). The planner takes the words as independent, so their
 * matches are often many times its estimate: «видеокарты для майнинга» was expected in 3 142 posts
 * of the bench set and is in 21 813, 1 748 of them in the last two months. A single word's
 * estimate is close for a common word, and a rarer word (under the walk's 30 000) seldom has a
 * thousand matches in recent months: «велосипед», in 10 000 posts, has 781 there.
 */
const RECENT_FIRST_ABOVE_MATCHES = 2_000;
/** The recent months, as months back from the current one in UTC: the next (a clock a little ahead), this one and the last. */
const RECENT_MONTHS_BACK = [-1, 0, 1];

/** The month token of the search document for `monthsBack` months before `now`'s month (UTC): '#YYYYMM'. */
function monthToken(now: Date, monthsBack: number): string {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
  return `#${month.getUTCFullYear() * 100 + month.getUTCMonth() + 1}`;
}

/** A tsquery (as text) matching the search documents of the RECENT_MONTHS_BACK from `now`. */
function recentMonthsQuery(now: Date): string {
  return RECENT_MONTHS_BACK.map((back) => `'${monthToken(now, back)}'`).join(" | ");
}

/** Whether a normalised query has two words or more to match (a negated word does not count). */
function severalWords(q: string): boolean {
  return q.split(" ").filter((word) => !word.startsWith("-") && /[\p{L}\p{N}]/u.test(word)).length > 1;
}

/**
 * What walking one post costs, in matches collected from the index: the walk reads each post's
 * search vector, the index only its date (bench/search on PostgreSQL: about 30 µs against 10).
 */
const WALKED_POST_COST = 3;

/**
 * The tsquery of a normalised query: websearch syntax (words, "a phrase", -word, or) in the
 * 'russian' configuration, and a plain last word also as the beginning of a word, so a half-typed
 * «велосип» finds «велосипед» (docs/product/content.md#search).
 */
function tsquerySql(q: string): SQL {
  const { rest, prefix } = splitPrefix(q);
  const words = sql`websearch_to_tsquery('russian', ${rest})`;
  if (prefix === null) return words;
  // A stop-word («для», «как») is no prefix: it would match every word it begins.
  return sql`(${words} && (case when numnode(to_tsquery('russian', ${prefix})) > 0 then to_tsquery('russian', ${prefix}) || to_tsquery('simple', ${`${prefix}:*`}) else ''::tsquery end))`;
}

/** How long the number of posts in the planner's statistics is reused, in ms: it moves slowly. */
const POST_COUNT_TTL_MS = 60_000;
const postCounts = new WeakMap<Db, { posts: number; at: number }>();

/** The planner's estimate of the posts `where` keeps (EXPLAIN: one round trip, nothing read). */
async function plannedRows(db: Db, where: SQL | undefined): Promise<number> {
  const plan = await executeRows(db, sql`explain (format json) select 1 from ${posts} where ${where}`);
  const json = Object.values(plan[0] ?? {})[0];
  const parsed = (typeof json === "string" ? JSON.parse(json) : json) as { Plan?: { "Plan Rows"?: number } }[];
  return Number(parsed[0]?.Plan?.["Plan Rows"] ?? 0);
}

/**
 * How the newest matches are to be found: `posts` 0 means from the index; otherwise by the walk,
 * sized for `matches` among `posts` (the share of the walked posts expected to match).
 */
interface MatchPlan {
  matches: number;
  posts: number;
}

/** The planner's estimate of the rows `where` keeps in posts, and of all posts (0 before ANALYZE). */
async function estimateMatches(db: Db, where: SQL | undefined, walkAboveMatches: number): Promise<MatchPlan> {
  const matches = await plannedRows(db, where);
  if (matches <= walkAboveMatches) return { matches, posts: 0 };
  let known = postCounts.get(db);
  if (!known || Date.now() - known.at > POST_COUNT_TTL_MS) {
    const [stats] = await executeRows(db, sql`select reltuples from pg_class where oid = 'posts'::regclass`);
    known = { posts: Math.max(0, Number(stats?.reltuples ?? 0)), at: Date.now() };
    postCounts.set(db, known);
  }
  return { matches, posts: known.posts };
}

/**
 * Searches posts and articles for `query.q` (websearch syntax: words, "a phrase", -word, or; the
 * last word also as a prefix; Latin look-alikes inside Cyrillic words read as Cyrillic),
 * optionally within one category. The newest CANDIDATES matches are ranked, best first
 * (ts_rank_cd; ties newest first); `more` says there are more matches than that. An empty query,
 * or one of only stop-words or punctuation, returns an empty page; it never throws for anything a
 * user can type.
 */
export async function searchPosts(
  db: Db,
  query: SearchPostsQuery,
  params: PageParams,
  /** Tests lower the estimates above which the newest posts are walked, probed or searched recent months first, to search every way. */
  {
    walkAboveMatches = WALK_ABOVE_MATCHES,
    probeAboveMatches = PROBE_ABOVE_MATCHES,
    recentFirstAboveMatches = RECENT_FIRST_ABOVE_MATCHES,
  }: { walkAboveMatches?: number; probeAboveMatches?: number; recentFirstAboveMatches?: number } = {},
): Promise<PostSearchResult> {
  const q = normalizeQuery(query.q);
  if (q === "") return { ...toPage([], 0, params), q, searchable: false };

  const tsquery = tsquerySql(foldLookalikes(q));
  // Posts deleted by a moderator or hidden by reports are found by nobody (issue 10).
  const listed: SQL[] = [publicPostSql];
  if (query.categoryId !== undefined) listed.push(eq(posts.categoryId, query.categoryId));
  const matching = (match: SQL) => and(sql`${postSearchDocument} @@ (${match})`, ...listed);
  const where = matching(tsquery);

  const listedSql = and(...listed);
  let estimate = await estimateMatches(db, where, walkAboveMatches);
  if (query.categoryId !== undefined && estimate.posts === 0 && estimate.matches > probeAboveMatches) {
    estimate = (await probeNewest(db, listedSql, tsquery, estimate.matches)) ?? estimate;
  }
  const recentFirst = severalWords(q) && estimate.matches > recentFirstAboveMatches;
  // A walk, or recent months, that found too few matches falls back to every match from the index.
  const rows =
    (estimate.posts > 0 ? await rankedPage(db, { walk: estimate }, listedSql, tsquery, params) : null) ??
    (recentFirst
      ? await rankedPage(db, { recent: matching(sql`${tsquery} && (${recentMonthsQuery(new Date())})::tsquery`) }, listedSql, tsquery, params)
      : null) ??
    (await rankedPage(db, { where }, listedSql, tsquery, params)) ??
    [];
  const matched = rows[0]?.matched ?? 0;
  const more = matched > CANDIDATES;
  const counted = Math.min(matched, CANDIDATES);
  if (counted === 0) {
    const [tree] = await executeRows(db, sql`select numnode(${tsquery}) as nodes`);
    return { ...toPage([], 0, params), q, searchable: Number(tree?.nodes ?? 0) > 0 };
  }

  const items = rows.flatMap((row): PostSearchHitDto[] => {
    // The one row of a page past the end carries the count only.
    if (!row.post || !row.author) return [];
    const snippetHtml = highlightToHtml(stripMarkdownFragment(row.snippet ?? ""));
    return [
      {
        ...toPostSummaryDto(row.post, row.author),
        titleHtml: highlightToHtml(row.title ?? row.post.title),
        snippetHtml: snippetHtml || highlightToHtml(row.post.excerpt),
        rank: row.rank ?? 0,
      },
    ];
  });
  return { ...toPage(items, counted, params), ...(more ? { more } : {}), q, searchable: true };
}

/** The newest `limit` posts `listed` keeps, newest first, as a subquery `newest` (id, date, search vector): what a walk or a probe tests. */
function newestListed(db: Db, listed: SQL | undefined, limit: number) {
  return db
    .select({ id: posts.id, createdAt: posts.createdAt, searchVector: posts.searchVector })
    .from(posts)
    .where(listed)
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit)
    .as("newest");
}

/**
 * Tests the newest PROBE_ROWS posts `listed` keeps (one category's) against `tsquery`, and counts
 * those posts (the planner's estimate), side by side. Returns the walk's plan when walking the
 * newest posts, at WALKED_POST_COST each, reads less than collecting every match from the index
 * would: the probe's share of all the listed posts, or `estimatedMatches` if more. Otherwise the
 * index is kept (`posts` 0): with `matches` 0 when no probed post matched, so recent months are not
 * asked first (decision 0060; they would hold few matches, and a common prefix such as «игр» costs
 * its index scan again each time); null keeps the planner's estimate when there are fewer posts
 * than a probe (docs/decisions/0052).
 */
async function probeNewest(db: Db, listed: SQL | undefined, tsquery: SQL, estimatedMatches: number): Promise<MatchPlan | null> {
  const newest = newestListed(db, listed, PROBE_ROWS);
  const [[probe], listedPosts] = await Promise.all([
    db.select({ tested: count(), matched: sql<number>`count(*) filter (where ${newest.searchVector} @@ ${tsquery})`.mapWith(Number) }).from(newest),
    plannedRows(db, listed),
  ]);
  if (!probe || probe.tested < PROBE_ROWS) return null;
  if (probe.matched === 0) return { matches: 0, posts: 0 };
  const share = probe.matched / probe.tested;
  const matches = Math.max(estimatedMatches, share * listedPosts);
  const walked = (CANDIDATES + 1) / share;
  if (walked * WALKED_POST_COST >= matches) return { matches, posts: 0 };
  return { matches: share * listedPosts, posts: listedPosts };
}

/**
 * Where rankedPage takes the newest matches from: a walk of the newest listed posts sized by the
 * estimate, the matches of recent months (`recent`: the search's condition with the months' tokens
 * added) or every match (`where`) from the index.
 */
type MatchSource = { walk: MatchPlan } | { recent: SQL | undefined } | { where: SQL | undefined };

/**
 * One page of the newest CANDIDATES matches, ranked, in one query: the newest
 * CANDIDATES + 1 matches (the one past the thousand only says there are more), the thousand ranked
 * by ts_rank_cd (ties newest first), and the page's posts with their authors and highlights. Every
 * row carries `matched`, the matches found up to CANDIDATES + 1; a page past the end is one row
 * with no post, so the total is known all the same.
 *
 * A walk tests the newest listed posts (as many as the estimate says hold the matches, twice over);
 * otherwise the matches come from the GIN index, sorted by date (docs/decisions/0024), those of
 * recent months only or all. Null is returned when the walk or the recent months held too few
 * matches to be sure they are the newest.
 */
async function rankedPage(db: Db, source: MatchSource, listed: SQL | undefined, tsquery: SQL, params: PageParams) {
  const wanted = CANDIDATES + 1;
  const partial = !("where" in source);
  let matches;
  if ("walk" in source) {
    const estimate = source.walk;
    const share = Math.min(1, estimate.matches / estimate.posts);
    const newest = newestListed(db, listed, Math.ceil((wanted / share) * 2));
    matches = db.$with("matches").as(
      db
        .select({ id: newest.id, createdAt: newest.createdAt, searchVector: newest.searchVector })
        .from(newest)
        .where(sql`${newest.searchVector} @@ ${tsquery}`)
        .orderBy(desc(newest.createdAt), desc(newest.id))
        .limit(wanted),
    );
  } else {
    matches = db.$with("matches").as(
      db
        .select({ id: posts.id, createdAt: posts.createdAt, searchVector: posts.searchVector })
        .from(posts)
        .where("recent" in source ? source.recent : source.where)
        .orderBy(desc(posts.createdAt), desc(posts.id))
        .limit(wanted),
    );
  }
  // int, not count(*)'s bigint: postgres.js reads a bigint as a string.
  const tally = db.$with("tally").as(db.select({ matched: sql<number>`count(*)::int`.as("matched") }).from(matches));
  const candidates = db.$with("candidates").as(db.select().from(matches).orderBy(desc(matches.createdAt), desc(matches.id)).limit(CANDIDATES));
  const rankExpr = sql<number>`ts_rank_cd(${candidates.searchVector}, ${tsquery})`;
  const hits = db.$with("hits").as(
    db
      .select({ id: candidates.id, rank: rankExpr.as("rank") })
      .from(candidates)
      .orderBy(desc(rankExpr), desc(candidates.createdAt), desc(candidates.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
  );
  const rows = await db
    .with(matches, tally, candidates, hits)
    .select({
      matched: tally.matched,
      post: listColumns,
      author: users,
      rank: hits.rank,
      title: sql<string | null>`ts_headline('russian', translate(${posts.title}, ${MARKERS}, ''), ${tsquery}, ${TITLE_OPTIONS})`,
      snippet: sql<string | null>`ts_headline('russian', translate(${posts.body}, ${MARKERS}, ''), ${tsquery}, ${SNIPPET_OPTIONS})`,
    })
    .from(tally)
    .leftJoin(hits, sql`true`)
    .leftJoin(posts, eq(posts.id, hits.id))
    .leftJoin(users, eq(users.id, posts.authorId))
    .orderBy(desc(hits.rank), desc(posts.createdAt), desc(posts.id));
  if (partial && (rows[0]?.matched ?? 0) < wanted) return null;
  return rows;
}

export interface CategoryCountDto {
  id: number;
  name: string;
  postCount: number;
}

/**
 * Categories with the most posts, most first (ties by id): the empty state of /search.
 * One grouped query; categories without posts are left out.
 */
export async function listPopularCategories(db: Db, limit = 6): Promise<CategoryCountDto[]> {
  const postCount = count(posts.id);
  const rows = await db
    .select({ id: categories.id, name: categories.name, postCount })
    .from(categories)
    .innerJoin(posts, and(eq(posts.categoryId, categories.id), publicPostSql))
    .groupBy(categories.id, categories.name)
    .orderBy(desc(postCount), categories.id)
    .limit(limit);
  return rows.map((row) => ({ id: row.id, name: row.name, postCount: Number(row.postCount) }));
}
