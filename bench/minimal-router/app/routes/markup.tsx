import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ReactNode } from "react";
import type { MarkupNode } from "../../../markup-tree";

const trees = new Map<string, ReactNode>();

/**
 * Reads the markup once (server only: React Router leaves loaders and what only they import out
 * of the browser's bundle). Returns null: the page carries no data of its own.
 */
export function loader({ params }: { params: { name: string } }) {
  if (!trees.has(params.name)) {
    const file = path.join(process.env.BENCH_MARKUP_DIR ?? "", `${path.basename(params.name)}.json`);
    trees.set(params.name, toElement(JSON.parse(readFileSync(file, "utf8")) as MarkupNode));
  }
  return null;
}

/**
 * The floor of a page's rendering (bench/http, issue 12): writes the markup of one of the site's
 * pages, which bench/http took from the page as served and left in BENCH_MARKUP_DIR/<name>.json,
 * as host elements only: no components, hooks, data or database, the elements made once and kept.
 * What React DOM and the router spend on this route is the least any server-rendered page with
 * that markup costs.
 */
export default function Markup({ params }: { params: { name: string } }) {
  return trees.get(params.name) ?? null;
}

function toElement(node: MarkupNode): ReactNode {
  if (typeof node === "string") return node;
  const [tag, props, ...children] = node;
  return createElement(tag, props, ...children.map(toElement));
}
