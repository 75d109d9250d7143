/**
 * Page titles follow «Страница | SITE_NAME» (docs/product/interface.md#page-titles). The site name comes from the root
 * loader, so every route's meta function reads it from the matches.
 */
import type { MetaDescriptor } from "react-router";

type Match = { id: string; data?: unknown } | undefined;

export function siteNameFrom(matches: readonly Match[]): string {
  const root = matches.find((m) => m?.id === "root")?.data as { siteName?: string } | undefined;
  return root?.siteName ?? "Сходка";
}

/** `[{title}]` plus an optional description, for a route's meta export. */
export function pageMeta(matches: readonly Match[], page: string, description?: string): MetaDescriptor[] {
  const meta: MetaDescriptor[] = [{ title: `${page} | ${siteNameFrom(matches)}` }];
  if (description) meta.push({ name: "description", content: description });
  return meta;
}
