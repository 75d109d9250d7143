/**
 * Markdown to safe HTML for posts (docs/product/content.md#markdown: Markdown, sanitised on render).
 * marked parses; sanitize-html keeps an allow-list of tags, attributes and URL schemes, so
 * no script, event handler, style or javascript: link survives.
 */
import { createHash } from "node:crypto";
import { Marked, type Token, type Tokens, type TokenizerAndRendererExtension } from "marked";
import sanitizeHtml from "sanitize-html";
import { getConfig, type AppConfig } from "./config.server";
import { siteImageUrl, sitePlaceholderUrl } from "./images/site-image";
import { MENTION_AT_START, MENTION_GLUE } from "./mention-pattern";

/** Resolved mentions: lower-cased username → the member (domain/mentions resolveMentions builds it). */
export type MentionMap = ReadonlyMap<string, { id: number; username: string }>;

/** Where a mention placeholder points in cooked HTML (never a real page: linkMentions replaces it). */
const MENTION_PLACEHOLDER_PREFIX = "/mention/";

/** A mention token; `inLink` marks one inside a link's text, which stays plain text (the link is the link). */
interface MentionToken extends Tokens.Generic {
  type: "mention";
  username: string;
  inLink?: boolean;
}

/**
 * `@username` becomes a link to the member's profile when the username resolved. The same tokens
 * decide who is notified (markdownMentions), so the link shown and the person notified are always
 * the same (issue 13 item 9): nothing in code, URLs, e-mail addresses or a link's text, nothing glued
 * to a preceding word (`text@admin`), and no name that goes on with `-` or `.` and a letter
 * (`@ivan-petrov` is not @ivan).
 */
const mentionExtension: TokenizerAndRendererExtension = {
  name: "mention",
  level: "inline",
  start(src) {
    const match = /(^|[^\p{L}\p{N}_@.])@[A-Za-z0-9_А-Яа-яЁё]/u.exec(src);
    return match ? match.index + match[1]!.length : undefined;
  },
  tokenizer(src, tokens) {
    const match = MENTION_AT_START.exec(src);
    if (!match) return undefined;
    // marked hands text over piece by piece: the text just before must not end in a word character.
    const previous = tokens.at(-1);
    if (previous && MENTION_GLUE.test(previous.raw)) return undefined;
    return { type: "mention", raw: match[0], username: match[1]! };
  },
  renderer(token) {
    const name = token.username as string;
    // Cooked HTML keeps a placeholder; linkMentions resolves it when the page is read.
    return (token as MentionToken).inLink ? `@${name}` : `<a href="${MENTION_PLACEHOLDER_PREFIX}${name}" class="mention">@${name}</a>`;
  },
};

/** Marks the mentions inside link tokens (a mention in `[@admin](url)` is the link's text, not a mention). */
function markMentionsInLinks(token: Token): void {
  if (token.type !== "link") return;
  marked.walkTokens(token.tokens ?? [], (inner) => {
    if (inner.type === "mention") (inner as MentionToken).inLink = true;
  });
}

const marked = new Marked({ gfm: true, breaks: true, async: false, extensions: [mentionExtension], walkTokens: markMentionsInLinks });

/**
 * The usernames `markdown` mentions, lower-cased, each once, in order of appearance: exactly the
 * mention tokens renderMarkdown links (see mentionExtension).
 */
export function markdownMentions(markdown: string): string[] {
  // Every mention starts with "@" (MENTION_AT_START): without one there is nothing to parse for.
  // Most messages and comments hold none, and parsing was a few per cent of sending a message.
  if (!markdown.includes("@")) return [];
  const tokens = marked.lexer(markdown);
  marked.walkTokens(tokens, markMentionsInLinks);
  const found = new Set<string>();
  marked.walkTokens(tokens, (token) => {
    if (token.type === "mention" && !(token as MentionToken).inLink) found.add((token as MentionToken).username.toLowerCase());
  });
  return [...found];
}

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "pre",
    "code",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "del",
    "s",
    "a",
    "img",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "input",
  ],
  allowedAttributes: {
    a: ["href", "title"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    input: ["type", "checked", "disabled"],
    ol: ["start"],
  },
  allowedClasses: { code: [/^language-[\w-]+$/], a: ["mention"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // Links inside the site (mentions) stay in the tab; others open apart and pass no rank.
    a: (tagName, attribs) =>
      attribs.href?.startsWith("/") ? { tagName, attribs } : { tagName, attribs: { ...attribs, rel: "nofollow ugc noopener noreferrer", target: "_blank" } },
    img: (tagName, attribs) => postImage(tagName, attribs),
    input: (tagName, attribs) => (attribs.type === "checkbox" ? { tagName, attribs: { ...attribs, disabled: "" } } : { tagName: "span", attribs: {} }),
  },
};
/** The width post pictures are asked at from the image endpoint (the widest screen, docs/product/limits.md). */
const POST_IMAGE_WIDTH = 1536;

/**
 * A picture in a post (issue 13 item 11): one of this site's files or of IMAGE_ALLOWED_HOSTS loads
 * through the image endpoint, so the reader's browser only ever asks this site (CSP
 * `img-src 'self'`); any other address becomes a plain link to it — a tracking pixel never loads.
 */
function postImage(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const src = attribs.src ?? "";
  const { publicUrl, imageAllowedHosts } = getConfig();
  const shown = siteImageUrl(src, POST_IMAGE_WIDTH, publicUrl, imageAllowedHosts);
  if (shown) {
    // The 10×10 placeholder shows under the picture until it loads (docs/product/interface.md#images).
    const placeholder = sitePlaceholderUrl(src, publicUrl, imageAllowedHosts);
    const style = placeholder ? `background-image:url("${placeholder}");background-size:cover;background-repeat:no-repeat` : undefined;
    return { tagName, attribs: { ...attribs, src: shown, loading: "lazy", ...(style ? { style } : {}) } };
  }
  const label = attribs.alt || attribs.title || "изображение";
  return { tagName: "a", attribs: { href: src, rel: "nofollow ugc noopener noreferrer", target: "_blank" }, text: `🖼 ${label}` };
}

SANITIZE_OPTIONS.allowedAttributes = {
  ...(SANITIZE_OPTIONS.allowedAttributes as Record<string, string[]>),
  a: ["href", "title", "rel", "target"],
  img: ["src", "alt", "title", "width", "height", "loading", "style"],
};
// Only the placeholder's own background survives in a style attribute: our endpoint's URL, nothing else.
SANITIZE_OPTIONS.allowedStyles = {
  img: {
    "background-image": [/^url\("\/api\/image\?[\w%=&.+-]*"\)$/],
    "background-size": [/^cover$/],
    "background-repeat": [/^no-repeat$/],
  },
};

/**
 * Bumped whenever the renderer's output changes (tags allowed, extensions, pictures): stored rows
 * cooked by an older renderer are then re-cooked (docs/decisions/0027-cooked-markdown.md).
 */
const RENDERER_VERSION = 1;

let cookVersionMemo: { key: string; version: string } | null = null;

/**
 * The version stamped on cooked HTML: the renderer's version and a digest of IMAGE_ALLOWED_HOSTS,
 * which decides whether a picture loads or becomes a link, e.g. `"1:3f9a0c2e"`. A row whose stamp
 * differs is cooked again when read and by the re-cook job. PUBLIC_URL is left out on purpose: a
 * picture linked by the site's own address when it was written stays this site's picture, and a
 * test server on a new port each run must not find every stored row stale.
 */
export function cookVersion(config: Pick<AppConfig, "imageAllowedHosts"> = getConfig()): string {
  const key = [...config.imageAllowedHosts].join(",");
  if (cookVersionMemo?.key !== key) cookVersionMemo = { key, version: `${RENDERER_VERSION}:${createHash("sha256").update(key).digest("hex").slice(0, 8)}` };
  return cookVersionMemo.version;
}

/**
 * Cooks Markdown: sanitised HTML, safe to put into the page as is once linkMentions has resolved
 * its mention placeholders. This is the expensive part (marked + sanitize-html), done once when a
 * post, comment or wall entry is written or edited and stored beside it
 * (docs/product/engineering.md#speed, decision 0027); mentions stay placeholders so a rename or a
 * new member never makes stored HTML stale.
 */
export function cookMarkdown(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown) as string, SANITIZE_OPTIONS);
}

/** A mention placeholder as cookMarkdown writes it (the name twice, so nothing else matches). */
const MENTION_PLACEHOLDER = /<a href="\/mention\/([A-Za-z0-9_А-Яа-яЁё]+)" class="mention">@\1<\/a>/gu;

/** The usernames cooked HTML mentions, lower-cased, each once, in order of appearance. */
export function cookedMentionNames(cooked: string): string[] {
  const found = new Set<string>();
  for (const match of cooked.matchAll(MENTION_PLACEHOLDER)) found.add(match[1]!.toLowerCase());
  return [...found];
}

/**
 * Cooked HTML with its mentions resolved: a mention of a member in `mentions` (see
 * resolveMentions) becomes a link to their profile showing their username as spelt now; any other
 * stays plain text. Cheap (one regular expression), so it runs on every read.
 */
export function linkMentions(cooked: string, mentions: MentionMap): string {
  if (!cooked.includes(MENTION_PLACEHOLDER_PREFIX)) return cooked;
  return cooked.replace(MENTION_PLACEHOLDER, (_whole, name: string) => {
    const member = mentions.get(name.toLowerCase());
    return member ? `<a href="/profile/${member.id}" class="mention">@${member.username}</a>` : `@${name}`;
  });
}

/**
 * Renders Markdown to sanitised HTML, safe to put into the page as is: cookMarkdown then
 * linkMentions. For text that is not stored cooked (previews, rules, FAQ answers).
 */
export function renderMarkdown(markdown: string, mentions?: MentionMap): string {
  return linkMentions(cookMarkdown(markdown), mentions ?? new Map());
}

/** A plain-text excerpt of at most `maxLength` characters, for feeds and meta descriptions. */
export function markdownExcerpt(markdown: string, maxLength = 220): string {
  // Keep the boundaries between blocks readable once the tags are gone.
  const html = (marked.parse(markdown) as string)
    .replace(/<\/h[1-6]>/g, ": ")
    .replace(/<\/li>/g, "; ")
    .replace(/<\/(p|blockquote|pre|tr)>|<br\s*\/?>/g, " ");
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&[a-z]+;|&#\d+;/g, (entity) => ENTITIES[entity] ?? " ")
    .replace(/\s+/g, " ")
    .replace(/([:;.!?])\s*[:;]\s/g, "$1 ")
    .replace(/[;:]\s*$/, "")
    .trim();
  return shortenExcerpt(text, maxLength);
}

/**
 * An excerpt cut to `maxLength` characters as markdownExcerpt cuts («…» in the last place): from a
 * post's stored excerpt (220), the same text markdownExcerpt(body, maxLength) gives for a shorter
 * length, without parsing the body again (the post page's description, issue 12).
 */
export function shortenExcerpt(excerpt: string, maxLength: number): string {
  return excerpt.length <= maxLength ? excerpt : `${excerpt.slice(0, maxLength - 1).trimEnd()}…`;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };
