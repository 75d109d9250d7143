/**
 * Markdown to safe HTML for posts (docs/product/content.md#markdown: Markdown, sanitised on render).
 * marked parses; sanitize-html keeps an allow-list of tags, attributes and URL schemes, so
 * no script, event handler, style or javascript: link survives.
 */
import { Marked, type Token, type Tokens, type TokenizerAndRendererExtension } from "marked";
import sanitizeHtml from "sanitize-html";
import { getConfig } from "./config.server";
import { siteImageUrl, sitePlaceholderUrl } from "./images/site-image";
import { MENTION_AT_START, MENTION_GLUE } from "./mention-pattern";

/** Resolved mentions: lower-cased username → the member (domain/mentions resolveMentions builds it). */
export type MentionMap = ReadonlyMap<string, { id: number; username: string }>;

/** The mentions of the render in progress (marked renders synchronously, one at a time). */
let currentMentions: MentionMap | null = null;

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
    const text = `@${token.username as string}`;
    if ((token as MentionToken).inLink) return text;
    const member = currentMentions?.get(String(token.username).toLowerCase());
    return member ? `<a href="/profile/${member.id}" class="mention">@${member.username}</a>` : text;
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
 * Renders Markdown to sanitised HTML, safe to put into the page as is. Mentions found in
 * `mentions` (see resolveMentions) become profile links; others stay plain text.
 */
export function renderMarkdown(markdown: string, mentions?: MentionMap): string {
  currentMentions = mentions ?? null;
  try {
    return sanitizeHtml(marked.parse(markdown) as string, SANITIZE_OPTIONS);
  } finally {
    currentMentions = null;
  }
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
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1).trimEnd()}…`;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };
