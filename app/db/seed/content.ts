/**
 * Demo content for «Сходка»: members and a deterministic post generator.
 *
 * Pure data, no I/O. Post texts are assembled from per-category pools
 * (./pools/*.ts) with a seeded PRNG, so every call returns the same posts.
 */
import { memberDefs, type MemberDef } from "./members.ts";
import { adminPosts, categoryPools, makeKit, type ArticleTopic, type CategoryPool, type Draft, type Kit } from "./pools.ts";
import { Rng } from "./prng.ts";

export interface SeedMember {
  username: string; // unique case-insensitively, 3-32 chars: Latin/Cyrillic letters, digits, underscore
  displayName: string;
  bio: string;
  role: "admin" | "moderator" | "member";
  verified: boolean;
  joinedDaysAgo: number; // 1..900
}

export type SeedPostKind = "post" | "article";

export interface SeedPost {
  author: string; // username from seedMembers
  title: string; // 3..200 chars
  body: string; // Markdown
  categoryId: number; // 1..9
  kind: SeedPostKind;
  daysAgo: number; // 0..365, fractional
}

export const seedMembers: SeedMember[] = memberDefs.map(({ username, displayName, bio, role, verified, joinedDaysAgo }): SeedMember => ({
  username,
  displayName,
  bio,
  role,
  verified,
  joinedDaysAgo,
}));

/**
 * Generated posts per category (articles included); admin announcements come on top. The bench data
 * set (bench/data/content.ts) keeps the same mix.
 */
export const POSTS_PER_CATEGORY: Record<number, number> = { 1: 32, 2: 30, 3: 30, 4: 30, 5: 24, 6: 26, 7: 24, 8: 22, 9: 22 };
const SEED = 0x5c0d_ca11;
const MIN_POST_BODY = 300;
const MAX_BODY = 4000;
const MIN_ARTICLE_BODY = 1500;

/** Suffixes used only if a generated title collides with an existing one. */
const TITLE_SUFFIXES = [" (актуально)", " — обновлено", " — снова в продаже", " (повтор)", " — новая тема"];

interface Slot {
  categoryId: number;
  kind: SeedPostKind;
  article?: ArticleTopic;
  author?: MemberDef;
}

function buildSlots(rng: Rng): Slot[] {
  const slots: Slot[] = [];
  for (const [id, count] of Object.entries(POSTS_PER_CATEGORY)) {
    const categoryId = Number(id);
    const pool = poolFor(categoryId);
    for (const article of pool.articles) slots.push({ categoryId, kind: "article", article });
    for (let i = pool.articles.length; i < count; i++) slots.push({ categoryId, kind: "post" });
  }
  return rng.shuffle(slots);
}

function poolFor(categoryId: number): CategoryPool {
  const pool = categoryPools[categoryId];
  if (!pool) throw new Error(`No content pool for category ${categoryId}`);
  return pool;
}

function pickWeighted(rng: Rng, members: readonly MemberDef[]): MemberDef {
  const total = members.reduce((sum, m) => sum + m.activity, 0);
  let roll = rng.next() * total;
  for (const m of members) {
    roll -= m.activity;
    if (roll < 0) return m;
  }
  return rng.pick(members);
}

/** Every non-admin member gets at least two slots, preferably in their categories. */
function assignAuthors(rng: Rng, slots: Slot[]): void {
  const authors = memberDefs.filter((m) => m.role !== "admin");
  for (const member of rng.shuffle(authors)) {
    for (let n = 0; n < 2; n++) {
      const free = slots.filter((s) => !s.author);
      const preferred = free.filter((s) => member.interests.includes(s.categoryId));
      const slot = rng.pick(preferred.length > 0 ? preferred : free);
      slot.author = member;
    }
  }
  for (const slot of slots) {
    if (slot.author) continue;
    const interested = authors.filter((m) => m.interests.includes(slot.categoryId));
    slot.author = pickWeighted(rng, interested.length > 0 ? interested : authors);
  }
}

function withBlocks(parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join("\n\n");
}

/**
 * A post's body: the topic's blocks, then category fillers up to 380–700 characters, usually a
 * closing line. Shared with the bench data set's templates (bench/data/templates.ts).
 */
export function buildPostBody(k: Kit, pool: CategoryPool, draft: Draft): string {
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

/**
 * An article's body: its intro, the topic's sections, extra sections up to 1 700+ characters (never
 * past MAX_BODY), the outro. Shared with the bench data set's templates (bench/data/templates.ts).
 */
export function buildArticleBody(k: Kit, pool: CategoryPool, article: ArticleTopic): string {
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

function uniqueTitle(title: string, used: Set<string>): string {
  const clean = title.trim();
  if (!used.has(clean.toLowerCase())) return clean;
  for (const suffix of TITLE_SUFFIXES) {
    const candidate = clean + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
  for (let n = 2; ; n++) {
    const candidate = `${clean} (${n})`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** Publication time: never before the author joined, skewed towards recent days. */
function pickDaysAgo(rng: Rng, author: MemberDef): number {
  const max = Math.min(365, Math.max(0.5, author.joinedDaysAgo - 0.25));
  return Math.round(max * Math.pow(rng.next(), 1.25) * 100) / 100;
}

export function buildSeedPosts(): SeedPost[] {
  const rng = new Rng(SEED);
  const slots = buildSlots(rng);
  assignAuthors(rng, slots);

  const usedTitles = new Set(adminPosts.map((p) => p.title.toLowerCase()));
  const topicQueues = new Map<number, number[]>();
  const nextTopic = (categoryId: number, pool: CategoryPool): number => {
    let queue = topicQueues.get(categoryId);
    if (!queue || queue.length === 0) {
      queue = rng.shuffle(pool.topics.map((_, i) => i));
      topicQueues.set(categoryId, queue);
    }
    return queue.shift() ?? 0;
  };

  const posts: SeedPost[] = adminPosts.map((p) => ({ author: "admin", ...p }));
  for (const slot of slots) {
    const author = slot.author;
    if (!author) throw new Error("Slot without author");
    const pool = poolFor(slot.categoryId);
    const k = makeKit(rng, { female: author.female === true, joinedDaysAgo: author.joinedDaysAgo });

    let title: string;
    let body: string;
    if (slot.kind === "article" && slot.article) {
      title = k.text(slot.article.title);
      body = buildArticleBody(k, pool, slot.article);
    } else {
      let draft = pool.topics[nextTopic(slot.categoryId, pool)]?.(k);
      for (let attempt = 0; draft && usedTitles.has(draft.title.toLowerCase()) && attempt < 12; attempt++) {
        draft = pool.topics[nextTopic(slot.categoryId, pool)]?.(k);
      }
      if (!draft) throw new Error(`Category ${slot.categoryId} has no topics`);
      title = draft.title;
      body = buildPostBody(k, pool, draft);
    }
    title = uniqueTitle(title, usedTitles);
    usedTitles.add(title.toLowerCase());
    posts.push({
      author: author.username,
      title,
      body,
      categoryId: slot.categoryId,
      kind: slot.kind,
      daysAgo: pickDaysAgo(rng, author),
    });
  }

  // Oldest first, like a forum that grew over time.
  return posts.sort((a, b) => b.daysAgo - a.daysAgo);
}
