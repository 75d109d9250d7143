/**
 * The visitor page cache (issue 12; docs/product/engineering.md#speed): signed-out GET and HEAD
 * requests for public pages are answered from memory, before React Router runs, keyed by the
 * URL and what varies the page for a visitor (the colour scheme cookie).
 *
 * What is shared and what is not:
 * - A request carrying any cookie other than `csrf` and `color-scheme` (a session, a flash
 *   toast, …) or an Authorization header is never answered from the cache, and its response is
 *   never stored: signed-in pages are never shared.
 * - A stored page keeps the CSRF token and the CSP nonce of the request that rendered it as
 *   placeholders; each answer puts in the reader's own token (issuing a new `csrf` cookie when
 *   the reader has none) and this response's nonce, so forms and scripts work for everyone.
 * - Only 200 answers with an HTML or single-fetch (`.data`) body and no Set-Cookie are stored.
 * - Answering a stored page does what rendering it would have counted: post views (server/app.ts)
 *   and the impressions of the ads it shows (adsShownIn).
 *
 * Freshness: every page is stamped with the cache's generation. Any request that may write
 * (every method but GET and HEAD) bumps the generation when it ends, here at once and in every
 * other process through the realtime pub/sub (pubsub.server.ts), so a new post, comment or like
 * shows on the next visitor request; a render that overlapped a bump is not stored. Changes made
 * outside requests (the scheduler) are caught by PAGE_CACHE_TTL_MS.
 *
 * Validation: answers carry an ETag (the page's content and the reader's token) and
 * `Cache-Control: no-cache`; a matching If-None-Match gets 304 without a CSP header, so the
 * browser keeps the policy whose nonce matches its stored copy.
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { COLOR_SCHEME_COOKIE } from "./color-scheme";
import { deflateParts, gzipFromParts } from "./page-gzip.server";

/** How long a stored page may be served without a write having been seen (ms). */
export const PAGE_CACHE_TTL_MS = 30_000;
/** The pub/sub message (`{ to: PAGE_CACHE_ENVELOPE }`) that tells every process a write happened. */
export const PAGE_CACHE_ENVELOPE = "page-cache";
/** Bytes of page bodies, plain and compressed, kept per process. */
export const PAGE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The public pages a visitor may be served from the cache, each also as its `.data` request, and
 * the public calls that answer every visitor alike (a member's posts: issue 12's
 * `/api/profile/{id}/posts`).
 */
const CACHEABLE_PATH =
  /^\/(?:(?:_root|articles|faq|music|search|leaderboard|claims|claims\/\d+|blacklist|services\/guarantor|profile\/\d+|post\/\d+)?(?:\.data)?|api\/profile\/\d+\/posts)$/;
/** Cookies that do not make a page personal: the CSRF token (put in per reader) and the colour scheme (in the key). */
const SHAREABLE_COOKIES = new Set(["csrf", COLOR_SCHEME_COOKIE]);
/** Response headers a stored page does not keep: they belong to the response that rendered it. */
const UNSTORED_HEADERS = new Set(["set-cookie", "date", "etag", "content-length", "x-request-id", "cache-control", "transfer-encoding", "connection"]);

/** A stored page: its body cut at the token and nonce, the headers to repeat, and its stamp. */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  /** The body between placeholders, as UTF-8 bytes; `holes[i]` says what goes after `parts[i]`. */
  parts: Buffer[];
  /** The parts compressed for answers in gzip (page-gzip.server.ts, with holeLengths). */
  deflatedParts: Buffer[];
  holes: Hole[];
  /** The bytes each hole held in the rendered page. */
  holeLengths: number[];
  /** A hash of the body without its token and nonce. */
  contentHash: string;
  /** The ads the page shows (their click links): answering it counts their impressions, as rendering it did. */
  adIds: number[];
  generation: number;
}

/** What a request needs to be served from, or stored in, the cache. */
export interface PageRequest {
  method: string;
  /** Path and query, as the request line has them. */
  url: string;
  cookieHeader: string | undefined;
  hasAuthorization: boolean;
}

/**
 * Writes no visitor's page shows, which leave the stored pages as they are: conversations and
 * their messages, read markers and notifications (a member's own), starting a personal
 * conversation, and the colour-scheme switch (pages are stored per scheme). Chat is the site's most
 * frequent write; emptying every stored page for each message would leave visitors' pages to be
 * rendered again all day long on a busy site. Paths with React Router's `.data` suffix too.
 */
const PRIVATE_WRITE_PATHS: readonly RegExp[] = [
  // The conversations page's forms: send, edit, delete, read, groups and their members.
  /^\/profile\/conversations(?:\.data)?$/,
  // The conversations API: messages and read markers, groups, personal conversations.
  /^\/api\/profile\/conversations?\/.+$/,
  // A member's notifications marked read, on the page and through the API.
  /^\/profile\/notifications(?:\.data)?$/,
  /^\/api\/profile\/notifications(?:\/.+)?$/,
  // «Написать» on a profile: starts (or finds) a personal conversation.
  /^\/profile\/\d+\/message(?:\.data)?$/,
  // The colour-scheme switch: pages are stored per scheme.
  /^\/settings\/color-scheme(?:\.data)?$/,
];

/**
 * Whether a write (any method but GET and HEAD) to `pathname` may change what a visitor's page
 * shows, so that the stored pages must be forgotten in every process (docs/product/engineering.md#speed).
 * False only for the writes PRIVATE_WRITE_PATHS lists.
 */
export function writeMayChangePublicPages(pathname: string): boolean {
  return !PRIVATE_WRITE_PATHS.some((pattern) => pattern.test(pathname));
}

/**
 * The cache key of a request, or null when it may neither be answered from the cache nor stored:
 * a method other than GET/HEAD, a page outside CACHEABLE_PATH, an Authorization header or a cookie
 * other than `csrf` and `color-scheme`.
 */
export function pageCacheKey(request: PageRequest): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (request.hasAuthorization) return null;
  const queryAt = request.url.indexOf("?");
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  if (!CACHEABLE_PATH.test(path)) return null;
  let scheme = "";
  for (const pair of (request.cookieHeader ?? "").split(";")) {
    const at = pair.indexOf("=");
    const name = (at < 0 ? pair : pair.slice(0, at)).trim();
    if (name === "") continue;
    if (!SHAREABLE_COOKIES.has(name)) return null;
    if (name === COLOR_SCHEME_COOKIE) scheme = pair.slice(at + 1).trim();
  }
  return `${scheme}|${request.url}`;
}

/**
 * The body of a page answer with the reader's CSRF token and this response's nonce put in, as
 * UTF-8 bytes: the stored bytes put together, so an answer never encodes the page again.
 */
export function fillPageBytes(page: CachedPage, token: string, nonce: string): Buffer {
  const fills = holeBytes(page, token, nonce);
  if (fills.length === 0) return page.parts[0]!;
  const chunks: Buffer[] = [page.parts[0]!];
  for (let i = 0; i < fills.length; i++) chunks.push(fills[i]!, page.parts[i + 1]!);
  return Buffer.concat(chunks);
}

/** fillPageBytes in gzip, from the page's parts compressed when it was stored. */
export function gzipPageBytes(page: CachedPage, token: string, nonce: string): Buffer {
  return gzipFromParts(page.parts, page.deflatedParts, page.holeLengths, holeBytes(page, token, nonce));
}

/** What goes in each of the page's holes for this reader and response, as UTF-8 bytes. */
function holeBytes(page: CachedPage, token: string, nonce: string): Buffer[] {
  if (page.holes.length === 0) return [];
  const spellings = tokenSpellings(token);
  return page.holes.map((hole) => Buffer.from(hole === "nonce" ? nonce : spellings[hole]));
}

/** fillPageBytes as text. */
export function fillPage(page: CachedPage, token: string, nonce: string): string {
  return fillPageBytes(page, token, nonce).toString("utf8");
}

/** The ETag of `page` as answered to the reader holding `token`. */
export function pageEtag(page: CachedPage, token: string): string {
  if (!holdsToken(page)) return `"${page.contentHash}"`;
  return `"${page.contentHash}.${createHash("sha1").update(token).digest("base64url").slice(0, 10)}"`;
}

/**
 * Whether answering `page` gives the reader a CSRF token: an HTML page or its `.data` does, a
 * JSON call does not, and then no `csrf` cookie is issued with it and its ETag is the same for
 * every reader.
 */
export function holdsToken(page: CachedPage): boolean {
  return page.holes.some((hole) => hole !== "nonce");
}

/** What goes in a stored page's hole: the reader's token as written raw, in an HTML attribute or in a script; or the nonce. */
type Hole = "token" | "tokenHtml" | "tokenScript" | "nonce";

/**
 * The ways a rendered page writes `token`: raw, as React escapes an attribute value («&» as
 * &amp;) and as React Router escapes the hydration script («&» as \u0026). remix-utils' own
 * tokens drew from an alphabet holding «&»; ours are base64url (csrf.server.ts), but the cut
 * stays safe for any token.
 */
function tokenSpellings(token: string): Record<Exclude<Hole, "nonce">, string> {
  return {
    token,
    tokenHtml: token.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;"),
    tokenScript: token.replaceAll("&", "\\u0026").replaceAll("<", "\\u003c").replaceAll(">", "\\u003e"),
  };
}

/**
 * Cuts a rendered page at every occurrence of the token (in each of its spellings) and of the
 * nonce it was rendered with; an empty nonce (development serves no CSP nonce) is not cut.
 * Returns null when something of the token is still left (a spelling not known here, the token's
 * signature after its «.»): such a page must not be stored, or it would hand one reader's token
 * to the next.
 */
export function cutPage(
  body: string,
  token: string,
  nonce: string,
): Pick<CachedPage, "parts" | "deflatedParts" | "holes" | "holeLengths" | "contentHash"> | null {
  const spellings = tokenSpellings(token);
  const byText = new Map<string, Hole>();
  // The longest spelling first, so an escaped one is not cut as a shorter raw one.
  for (const hole of ["tokenHtml", "tokenScript", "token"] as const) if (!byText.has(spellings[hole])) byText.set(spellings[hole], hole);
  if (nonce) byText.set(nonce, "nonce");
  const pattern = new RegExp(
    [...byText.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "g",
  );
  const parts: string[] = [];
  const holes: Hole[] = [];
  let from = 0;
  for (const match of body.matchAll(pattern)) {
    parts.push(body.slice(from, match.index));
    holes.push(byText.get(match[0])!);
    from = match.index + match[0].length;
  }
  parts.push(body.slice(from));
  const signature = token.slice(token.lastIndexOf(".") + 1);
  if (signature.length >= 8 && parts.some((part) => part.includes(signature))) return null;
  const contentHash = createHash("sha1").update(parts.join("\u0000")).digest("base64url").slice(0, 16);
  const holeLengths = holes.map((hole) => Buffer.byteLength(hole === "nonce" ? nonce : spellings[hole]));
  return withDeflatedParts({ parts: parts.map((part) => Buffer.from(part)), holes, holeLengths, contentHash });
}

/** A page answered as rendered, not stored: one part, no holes (for a page cutPage refused). */
export function uncutPage(body: string): Pick<CachedPage, "parts" | "deflatedParts" | "holes" | "holeLengths" | "contentHash"> {
  return withDeflatedParts({
    parts: [Buffer.from(body)],
    holes: [],
    holeLengths: [],
    contentHash: createHash("sha1").update(body).digest("base64url").slice(0, 16),
  });
}

function withDeflatedParts<T extends { parts: Buffer[]; holeLengths: number[] }>(page: T): T & { deflatedParts: Buffer[] } {
  return { ...page, deflatedParts: deflateParts(page.parts, page.holeLengths) };
}

/** The ids of the ads `body` shows, by their click links (`/ads/{id}/click`, adClickPath). */
export function adsShownIn(body: string): number[] {
  return [...new Set([...body.matchAll(/\/ads\/(\d+)\/click/g)].map((match) => Number(match[1])))];
}

/** The response headers a stored page repeats on every answer. */
export function storedHeaders(headers: Iterable<[string, string]>): [string, string][] {
  return [...headers].filter(([name]) => !UNSTORED_HEADERS.has(name.toLowerCase()));
}

/**
 * Whether a rendered answer may be stored: 200, an HTML, single-fetch or JSON body, cacheable, and no
 * Set-Cookie at all (the CSRF cookie of a new reader is issued by the cache, not the loader).
 */
export function isStorable(status: number, headers: Headers): boolean {
  if (status !== 200) return false;
  const type = headers.get("Content-Type") ?? "";
  if (!/^text\/html|^text\/x-script|^application\/json/i.test(type)) return false;
  if (/no-store|private/i.test(headers.get("Cache-Control") ?? "")) return false;
  return headers.getSetCookie().length === 0;
}

/** One process's store of visitor pages and its generation counter. */
export class PageCache {
  #generation = 0;
  readonly #rendering = new Map<string, Promise<void>>();
  readonly #pages: LRUCache<string, CachedPage>;

  /** `clock` measures the pages' lifetime (ms; performance by default, a fake one in tests). */
  constructor({ clock }: { clock?: { now(): number } } = {}) {
    this.#pages = new LRUCache<string, CachedPage>({
      maxSize: PAGE_CACHE_MAX_BYTES,
      sizeCalculation: (page) =>
        Math.max(
          1,
          [...page.parts, ...page.deflatedParts].reduce((sum, part) => sum + part.length, 0),
        ),
      ttl: PAGE_CACHE_TTL_MS,
      // An expired page stays until it is replaced or evicted, for staleWhileRendering.
      noDeleteOnStaleGet: true,
      ...(clock ? { perf: clock } : {}),
    });
  }

  /** The current generation; read before rendering and pass to store(). */
  get generation(): number {
    return this.#generation;
  }

  /** The stored page for `key`, if one of the current generation is held. */
  get(key: string): CachedPage | undefined {
    const page = this.#pages.get(key);
    if (page && page.generation !== this.#generation) {
      this.#pages.delete(key);
      return undefined;
    }
    return page;
  }

  /** Stores `page` unless the generation moved on while it was rendered. */
  store(key: string, page: CachedPage): void {
    if (page.generation === this.#generation) this.#pages.set(key, page);
  }

  /**
   * The render of `key` under way in this process, if any: a request that finds no stored page
   * waits for it rather than rendering the same page again (request coalescing, as proxy caches
   * do), so a page emptied from the cache under load is rendered once, not by every reader.
   */
  renderUnderWay(key: string): Promise<void> | undefined {
    return this.#rendering.get(key);
  }

  /**
   * The expired page of `key` while it is being rendered again: readers are answered with it
   * instead of waiting for the render (stale-while-revalidate). Only a page that outlived
   * PAGE_CACHE_TTL_MS qualifies: a write empties the cache, so nothing a write changed is ever
   * served stale.
   */
  staleWhileRendering(key: string): CachedPage | undefined {
    if (!this.#rendering.has(key)) return undefined;
    const page = this.#pages.peek(key, { allowStale: true });
    return page && page.generation === this.#generation ? page : undefined;
  }

  /**
   * The page to answer `key` with now: the stored one, or, while a render of it is under way, its
   * expired copy (staleWhileRendering). Both the Express path and the answer before Express ask this.
   */
  answerable(key: string): CachedPage | undefined {
    return this.get(key) ?? this.staleWhileRendering(key);
  }

  /** Marks a render of `key` as under way; call the returned function once it is stored or given up. */
  beginRender(key: string): () => void {
    let finish!: () => void;
    const underWay = new Promise<void>((resolve) => (finish = resolve));
    this.#rendering.set(key, underWay);
    return () => {
      if (this.#rendering.get(key) === underWay) this.#rendering.delete(key);
      finish();
    };
  }

  /** Forgets every stored page: something they may show has changed. */
  invalidate(): void {
    this.#generation++;
    this.#pages.clear();
  }

  /** How many pages are stored (for tests). */
  get size(): number {
    return this.#pages.size;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
