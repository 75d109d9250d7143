/**
 * Markdown to safe HTML for posts (PRODUCT.md Content: "Markdown, sanitised on render").
 * marked parses; sanitize-html keeps an allow-list of tags, attributes and URL schemes, so
 * no script, event handler, style or javascript: link survives.
 */
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

const marked = new Marked({ gfm: true, breaks: true, async: false });

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code",
    "ul", "ol", "li", "strong", "em", "del", "s", "a", "img",
    "table", "thead", "tbody", "tr", "th", "td", "input",
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
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "nofollow ugc noopener noreferrer", target: "_blank" },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
    input: (tagName, attribs) =>
      attribs.type === "checkbox" ? { tagName, attribs: { ...attribs, disabled: "" } } : { tagName: "span", attribs: {} },
  },
};
SANITIZE_OPTIONS.allowedAttributes = {
  ...(SANITIZE_OPTIONS.allowedAttributes as Record<string, string[]>),
  a: ["href", "title", "rel", "target"],
  img: ["src", "alt", "title", "width", "height", "loading"],
};

/** Renders Markdown to sanitised HTML, safe to put into the page as is. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return sanitizeHtml(html, SANITIZE_OPTIONS);
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
