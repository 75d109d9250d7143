/**
 * Full-text search of posts in Russian (docs/product/content.md#search; issue 3 item 6).
 *
 * posts.search_vector is a generated column: the title weighs A and the body B under the
 * 'russian' configuration, so «сделки» finds «сделка» (both stem to «сделк») and a match in
 * a title outranks one in a body. The GIN index posts_search_idx serves the `@@` match.
 * A page costs one query whatever its size: the ranked rows of the page with their authors,
 * highlights and the number of matches; a page without rows adds one count query.
 */
import { and, count, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { categories, posts, users } from "~/db/schema";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { publicPostSql } from "../moderation/visibility.server";
import { toPostSummaryDto, type PostSummaryDto } from "../posts/posts.server";
import { highlightToHtml, MATCH_START, MATCH_STOP, stripMarkdownFragment } from "./highlight";
import { normalizeQuery } from "./query";

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
 * Searches posts and articles for `query.q` (websearch syntax: words, "a phrase", -word,
 * or), optionally within one category, best match first (ts_rank_cd; ties newest first).
 * An empty query, or one of only stop-words or punctuation, returns an empty page; it never
 * throws for anything a user can type.
 */
export async function searchPosts(db: Db, query: SearchPostsQuery, params: PageParams): Promise<PostSearchResult> {
  const q = normalizeQuery(query.q);
  if (q === "") return { ...toPage([], 0, params), q, searchable: false };

  const tsquery = sql`websearch_to_tsquery('russian', ${q})`;
  // Posts deleted by a moderator or hidden by reports are found by nobody (issue 10).
  const conditions: SQL[] = [sql`${posts.searchVector} @@ ${tsquery}`, publicPostSql];
  if (query.categoryId !== undefined) conditions.push(eq(posts.categoryId, query.categoryId));
  const where = and(...conditions);
  const rankExpr = sql<number>`ts_rank_cd(${posts.searchVector}, ${tsquery})`;

  // The page's ids, ranks and the number of matches in one pass over the matches; headlines
  // are then computed for the rows of the page only, not for every match.
  const hits = db.$with("hits").as(
    db
      .select({ id: posts.id, rank: rankExpr.as("rank"), total: sql<number>`count(*) over ()`.as("total") })
      .from(posts)
      .where(where)
      .orderBy(desc(rankExpr), desc(posts.createdAt), desc(posts.id))
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage),
  );
  const rows = await db
    .with(hits)
    .select({
      post: listColumns,
      author: users,
      rank: sql<number>`${hits.rank}`.mapWith(Number),
      total: sql<number>`${hits.total}`.mapWith(Number),
      title: sql<string>`ts_headline('russian', translate(${posts.title}, ${MARKERS}, ''), ${tsquery}, ${TITLE_OPTIONS})`,
      snippet: sql<string>`ts_headline('russian', translate(${posts.body}, ${MARKERS}, ''), ${tsquery}, ${SNIPPET_OPTIONS})`,
    })
    .from(hits)
    .innerJoin(posts, eq(posts.id, hits.id))
    .innerJoin(users, eq(users.id, posts.authorId))
    .orderBy(desc(hits.rank), desc(posts.createdAt), desc(posts.id));

  let total = rows[0]?.total ?? 0;
  let searchable = rows.length > 0;
  if (rows.length === 0) {
    // Nothing on this page: tell "no match" (or a page past the end) from "no searchable word".
    const [counted] = await db
      .select({ total: count(), nodes: sql<number>`numnode(${tsquery})`.mapWith(Number) })
      .from(posts)
      .where(where);
    total = counted?.total ?? 0;
    searchable = (counted?.nodes ?? 0) > 0;
  }

  const items = rows.map((row): PostSearchHitDto => {
    const snippetHtml = highlightToHtml(stripMarkdownFragment(row.snippet ?? ""));
    return {
      ...toPostSummaryDto(row.post, row.author),
      titleHtml: highlightToHtml(row.title ?? row.post.title),
      snippetHtml: snippetHtml || highlightToHtml(row.post.excerpt),
      rank: row.rank,
    };
  });
  return { ...toPage(items, total, params), q, searchable };
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
