/**
 * A page's markup as host elements (bench/http's floor of rendering, issue 12): the page as the
 * site served it, parsed, and written as [tag, React props, ...children] nodes (text as strings)
 * for bench/minimal-router's markup route to turn into React elements. Cooked Markdown (posts',
 * comments', FAQ answers': every `.prose-post`) stays one string, as the site writes it with
 * `dangerouslySetInnerHTML`.
 */
import { DomUtils, parseDocument } from "htmlparser2";
import type { ChildNode, Element } from "domhandler";

export type MarkupNode = string | [string, Record<string, unknown>, ...MarkupNode[]];

/** HTML attribute names React knows by another name. */
const REACT_NAMES: Record<string, string> = { class: "className", for: "htmlFor" };
/** Attributes React writes only when true: present in HTML (even empty) means true. */
const BOOLEAN = new Set(["hidden", "disabled", "checked", "selected", "open", "required", "multiple", "async", "defer", "inert"]);

/**
 * The body of `html` without its scripts (the router's data and module scripts, which the markup
 * route's own page writes as any page does), as a `<div>` of MarkupNodes.
 */
export function bodyMarkup(html: string): MarkupNode {
  const document = parseDocument(html);
  const body = DomUtils.findOne((element) => element.name === "body", document.children);
  if (!body) throw new Error("the page has no <body>");
  return ["div", {}, ...convert(body.children)];
}

function convert(nodes: ChildNode[]): MarkupNode[] {
  const out: MarkupNode[] = [];
  for (const node of nodes) {
    if (node.type === "text") out.push(node.data);
    else if (node.type === "tag" && node.name !== "script") {
      if (node.attribs.class?.split(" ").includes("prose-post")) {
        out.push([node.name, { ...props(node), dangerouslySetInnerHTML: { __html: DomUtils.getInnerHTML(node, { encodeEntities: "utf8" }) } }]);
      } else out.push([node.name, props(node), ...convert(node.children)]);
    }
    // Comments (React's Suspense markers) and scripts are left out.
  }
  return out;
}

function props(element: Element): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(element.attribs)) {
    if (name === "style") result.style = styleObject(value);
    else if (BOOLEAN.has(name)) result[name] = true;
    else result[REACT_NAMES[name] ?? name] = value;
  }
  return result;
}

/** "a-b: c; --d: e" → { aB: "c", "--d": "e" }, as React takes a style. */
function styleObject(style: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim();
    const key = property.startsWith("--") ? property : property.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
    result[key] = declaration.slice(colon + 1).trim();
  }
  return result;
}
