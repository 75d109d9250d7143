/**
 * /sitemap.xml (issue 3 item 9): the public sections, posts, articles and profiles with
 * <lastmod>; past 50 000 URLs it becomes an index of /sitemaps/{n}.xml.
 */
import type { Route } from "./+types/sitemap";
import { buildSitemap } from "~/domain/search/sitemap.server";

export async function loader({ context }: Route.LoaderArgs) {
  const sitemap = await buildSitemap(context.db, context.config.publicUrl);
  return new Response(sitemap.xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
