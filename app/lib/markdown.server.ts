/**
 * Markdown to safe HTML for posts (docs/product/content.md#markdown: Markdown, sanitised on render).
 * marked parses; sanitize-html keeps an allow-list of tags, attributes and URL schemes, so
 * no script, event handler, style or javascript: link survives.
 */
import { Marked, type TokenizerAndRendererExtension } from "marked";
import sanitizeHtml from "sanitize-html";
import type { MentionMap } from "~/domain/mentions/mentions.server";

/** The mentions of the render in progress (marked renders synchronously, one at a time). */
let currentMentions: MentionMap | null = null;

/** `@username` becomes a link to the member's profile when the username resolved. */
const mentionExtension: TokenizerAndRendererExtension = {
  name: "mention",
  level: "inline",
  start(src) {
    const match = /(^|[^\p{L}\p{N}_@.])@[A-Za-z0-9_А-Яа-яЁё]/u.exec(src);
    return match ? match.index + match[1]!.length : undefined;
  },
  tokenizer(src) {
    const match = /^@([A-Za-z0-9_А-Яа-яЁё]{3,32})(?![\p{L}\p{N}_])/u.exec(src);
    if (!match) return undefined;
    return { type: "mention", raw: match[0], username: match[1]! };
  },
  renderer(token) {
    const member = currentMentions?.get(String(token.username).toLowerCase());
    const text = `@${token.username as string}`;
    return member ? `<a href="/profile/${member.id}" class="mention">@${member.username}</a>` : text;
  },
};

const marked = new Marked({ gfm: true, breaks: true, async: false, extensions: [mentionExtension] });

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
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
    input: (tagName, attribs) => (attribs.type === "checkbox" ? { tagName, attribs: { ...attribs, disabled: "" } } : { tagName: "span", attribs: {} }),
  },
};
SANITIZE_OPTIONS.allowedAttributes = {
  ...(SANITIZE_OPTIONS.allowedAttributes as Record<string, string[]>),
  a: ["href", "title", "rel", "target"],
  img: ["src", "alt", "title", "width", "height", "loading"],
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
