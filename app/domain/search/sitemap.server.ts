/**
 * sitemap.xml (issue 3 item 9; sitemaps.org protocol 0.9): the public sections, every post
 * and article (/post/{id}) and every public profile (/profile/{id}), with <lastmod>.
 *
 * A sitemap file holds at most 50 000 URLs. Up to that many, /sitemap.xml is the one
 * urlset; beyond, it becomes a sitemap index of /sitemaps/{n}.xml, each file a slice of the
 * same ordered sequence: static pages, then posts by id, then profiles by id. Every
 * function takes the page size, so tests can cross the threshold with a handful of rows.
 */
import { count, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { posts, users } from "~/db/schema";
import { publicPostRawSql, publicPostSql } from "../moderation/visibility.server";

/** The protocol's limit of URLs per sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * Public sections listed first, without <lastmod> (they change with every new post). Only pages
 * that exist and are open to visitors: /chatgpt needs sign-in.
 */
export const SITEMAP_STATIC_PATHS = ["/", "/articles", "/search", "/leaderboard", "/faq", "/music", "/ads", "/blacklist"] as const;

export interface SitemapEntry {
  /** Path on the site, e.g. /post/12. */
  path: string;
  /** When the page last changed, or null when unknown. */
  lastmod: Date | null;
}

/** What /sitemap.xml answers: one urlset, or an index of `files` part files. */
export type SitemapRoot = { kind: "urlset"; xml: string } | { kind: "index"; xml: string; files: number };

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Escapes the five XML-significant characters of a text node or attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

const XML_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n`;
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** A <urlset> document for `entries`, each loc being `baseUrl` + path. */
export function renderUrlset(baseUrl: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod.toISOString()}</lastmod>` : "";
    return `  <url><loc>${escapeXml(baseUrl + entry.path)}</loc>${lastmod}</url>\n`;
  });
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${urls.join("")}</urlset>\n`;
}

/** A <sitemapindex> pointing at /sitemaps/1.xml … /sitemaps/{files}.xml. */
export function renderSitemapIndex(baseUrl: string, files: number): string {
  const items: string[] = [];
  for (let n = 1; n <= files; n++) items.push(`  <sitemap><loc>${escapeXml(`${baseUrl}/sitemaps/${n}.xml`)}</loc></sitemap>\n`);
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${items.join("")}</sitemapindex>\n`;
}

interface SitemapCounts {
  posts: number;
  profiles: number;
}

async function countEntries(db: Db): Promise<SitemapCounts> {
  const [[postCount], [profileCount]] = await Promise.all([
    db.select({ value: count() }).from(posts).where(publicPostSql),
    db.select({ value: count() }).from(users),
  ]);
  return { posts: postCount?.value ?? 0, profiles: profileCount?.value ?? 0 };
}

function totalOf(counts: SitemapCounts): number {
  return SITEMAP_STATIC_PATHS.length + counts.posts + counts.profiles;
}

/**
 * The entries at positions [offset, offset + limit) of the whole ordered sequence.
 * At most three queries (counts, posts, profiles) whatever the slice's length.
 */
async function sliceEntries(db: Db, counts: SitemapCounts, offset: number, limit: number): Promise<SitemapEntry[]> {
  const entries: SitemapEntry[] = [];
  const end = offset + limit;
  const staticCount = SITEMAP_STATIC_PATHS.length;
  for (let i = offset; i < Math.min(end, staticCount); i++) entries.push({ path: SITEMAP_STATIC_PATHS[i]!, lastmod: null });

  const postStart = Math.max(0, offset - staticCount);
  const postEnd = Math.min(counts.posts, end - staticCount);
  const profileStart = Math.max(0, offset - staticCount - counts.posts);
  const profileEnd = Math.min(counts.profiles, end - staticCount - counts.posts);

  const [postRows, profileRows] = await Promise.all([
    postEnd > postStart
      ? db
          .select({ id: posts.id, lastmod: sql<Date>`coalesce(${posts.editedAt}, ${posts.createdAt})`.mapWith(posts.createdAt) })
          .from(posts)
          .where(publicPostSql)
          .orderBy(posts.id)
          .limit(postEnd - postStart)
          .offset(postStart)
      : Promise.resolve([]),
    profileEnd > profileStart
      ? db
          .select({
            id: users.id,
            // A profile changes when its owner publishes; the index on (author_id, created_at) answers this.
            lastmod:
              sql<Date>`greatest(${users.createdAt}, (select max(p.created_at) from posts p where p.author_id = ${users.id} and ${publicPostRawSql("p")}))`.mapWith(
                users.createdAt,
              ),
          })
          .from(users)
          .orderBy(users.id)
          .limit(profileEnd - profileStart)
          .offset(profileStart)
      : Promise.resolve([]),
  ]);
  for (const row of postRows) entries.push({ path: `/post/${row.id}`, lastmod: row.lastmod });
  for (const row of profileRows) entries.push({ path: `/profile/${row.id}`, lastmod: row.lastmod });
  return entries;
}

/**
 * /sitemap.xml: every URL in one urlset when they are at most `maxUrls`, otherwise a
 * sitemap index of ceil(total / maxUrls) part files.
 */
export async function buildSitemap(db: Db, baseUrl: string, maxUrls: number = SITEMAP_MAX_URLS): Promise<SitemapRoot> {
  const counts = await countEntries(db);
  const total = totalOf(counts);
  if (total <= maxUrls) return { kind: "urlset", xml: renderUrlset(baseUrl, await sliceEntries(db, counts, 0, total)) };
  const files = Math.ceil(total / maxUrls);
  return { kind: "index", xml: renderSitemapIndex(baseUrl, files), files };
}

/**
 * /sitemaps/{file}: the urlset of part `file` ("1.xml", "2.xml", …), or null when there is
 * no such part (a malformed name, a number past the last part, or no index at all).
 */
export async function buildSitemapPart(db: Db, baseUrl: string, file: string, maxUrls: number = SITEMAP_MAX_URLS): Promise<string | null> {
  const match = /^([1-9]\d{0,5})\.xml$/.exec(file);
  if (!match) return null;
  const part = Number(match[1]);
  const counts = await countEntries(db);
  const total = totalOf(counts);
  if (total <= maxUrls || part > Math.ceil(total / maxUrls)) return null;
  return renderUrlset(baseUrl, await sliceEntries(db, counts, (part - 1) * maxUrls, maxUrls));
}
