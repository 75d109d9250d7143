/**
 * Post and article templates for the bench data set, assembled from the demo seed's content
 * pools (app/db/seed/pools/*.ts) the way app/db/seed/content.ts assembles the demo posts:
 * a topic's blocks, one or two category fillers and a closing line; an article's intro,
 * sections, extra sections and outro. Each template carries the excerpt the app writes
 * beside the body (markdownExcerpt, app/domain/posts/posts.server.ts).
 *
 * Deterministic: the same templates in the same order for the same counts.
 */
import { buildArticleBody, buildPostBody } from "../../app/db/seed/content";
import { categoryPools, makeKit } from "../../app/db/seed/pools";
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
