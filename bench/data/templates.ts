/**
 * Post and article templates for the bench data set, assembled from the demo seed's content
 * pools (app/db/seed/pools/*.ts) the way app/db/seed/content.ts assembles the demo posts:
 * a topic's blocks, one or two category fillers and a closing line; an article's intro,
 * sections, extra sections and outro. Each template carries the excerpt the app writes
 * beside the body (markdownExcerpt, app/domain/posts/posts.server.ts).
 *
 * Deterministic: the same templates in the same order for the same counts.
 */
import { categoryPools, makeKit, type ArticleTopic, type CategoryPool, type Draft, type Kit } from "../../app/db/seed/pools";
import { Rng } from "../../app/db/seed/prng";
import { markdownExcerpt } from "../../app/lib/markdown.server";

export interface PostTemplate {
  categoryId: number;
  kind: "post" | "article";
  /** Written in the feminine first person (the author's gender must match). */
  female: boolean;
  title: string;
  body: string;
  excerpt: string;
}

/** Templates of one (category, kind, gender): rows `offset` … `offset + count - 1` of the list. */
export interface TemplateGroup {
  categoryId: number;
  kind: "post" | "article";
  female: boolean;
  offset: number;
  count: number;
}

/** Posts per category in the demo seed (content.ts): the bench data keeps the same mix. */
export const CATEGORY_WEIGHTS: Record<number, number> = { 1: 32, 2: 30, 3: 30, 4: 30, 5: 24, 6: 26, 7: 24, 8: 22, 9: 22 };

const MIN_POST_BODY = 300;
const MAX_BODY = 4000;
const MIN_ARTICLE_BODY = 1500;

const withBlocks = (parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join("\n\n");

/** content.ts buildPostBody: the topic's blocks, then fillers up to 380–700 characters, usually a closing. */
function buildPostBody(k: Kit, pool: CategoryPool, draft: Draft): string {
  const parts = [...draft.blocks];
  const target = k.int(380, 700);
  const maxFillers = k.int(1, 2);
  const fillers = k.rng.shuffle([...(draft.fillers ?? []), ...pool.fillers]);
  let added = 0;
  for (const filler of fillers) {
    const length = withBlocks(parts).length;
    const enough = length >= target || added >= maxFillers;
    if (enough && added >= 1 && length >= MIN_POST_BODY + 40) break;
    parts.push(k.text(filler));
    added++;
  }
  if (k.chance(0.85)) parts.push(k.text(k.pick(draft.closings ?? pool.closings)));
  return withBlocks(parts);
}

/** content.ts buildArticleBody: intro, the topic's sections, extra sections up to 1 700+ characters, outro. */
function buildArticleBody(k: Kit, pool: CategoryPool, article: ArticleTopic): string {
  const parts = [k.text(article.intro)];
  for (const section of article.sections) parts.push(`## ${section.heading}\n\n${k.text(section.body)}`);
  const outro = k.text(k.pick(pool.articleOutros));
  const headings = new Set(article.sections.map((section) => section.heading));
  for (const extra of k.rng.shuffle(pool.extraSections)) {
    if (headings.has(extra.heading)) continue;
    const current = withBlocks([...parts, outro]).length;
    const wantMore = current < MIN_ARTICLE_BODY + 200 || k.chance(0.35);
    const candidate = `## ${extra.heading}\n\n${k.text(extra.body)}`;
    if (!wantMore || current + candidate.length + 2 > MAX_BODY) break;
    parts.push(candidate);
  }
  parts.push(outro);
  return withBlocks(parts);
}

/**
 * A paragraph appended after a template's body must not change its excerpt: the generator
 * appends sentences in SQL and keeps the template's excerpt. Templates whose plain text is
 * shorter than the excerpt (so the appended text would show in it) are left out.
 */
const PROBE = "Проверочный абзац.";

export interface TemplateCounts {
  /** Post templates per category and gender. */
  posts: number;
  /** Article templates per category and gender. */
  articles: number;
}

/**
 * Builds `counts.posts` post templates and `counts.articles` article templates for each of
 * the nine categories and both genders, grouped (category, kind, gender) in that order.
 */
export function buildTemplates(counts: TemplateCounts): { templates: PostTemplate[]; groups: TemplateGroup[] } {
  const templates: PostTemplate[] = [];
  const groups: TemplateGroup[] = [];
  for (let categoryId = 1; categoryId <= 9; categoryId++) {
    const pool = categoryPools[categoryId]!;
    for (const kind of ["post", "article"] as const) {
      for (const female of [false, true]) {
        const rng = new Rng(categoryId * 1000 + (kind === "article" ? 100 : 0) + (female ? 1 : 0));
        const wanted = kind === "post" ? counts.posts : counts.articles;
        const offset = templates.length;
        for (let attempt = 0; templates.length - offset < wanted && attempt < wanted * 3; attempt++) {
          const k = makeKit(rng, { female, joinedDaysAgo: rng.int(20, 900) });
          let title: string;
          let body: string;
          if (kind === "article") {
            const article = rng.pick(pool.articles);
            title = k.text(article.title);
            body = buildArticleBody(k, pool, article);
          } else {
            const draft = rng.pick(pool.topics)(k);
            title = draft.title;
            body = buildPostBody(k, pool, draft);
          }
          const excerpt = markdownExcerpt(body);
          if (markdownExcerpt(`${body}\n\n${PROBE}`) !== excerpt) continue;
          templates.push({ categoryId, kind, female, title, body, excerpt });
        }
        groups.push({ categoryId, kind, female, offset, count: templates.length - offset });
      }
    }
  }
  return { templates, groups };
}
