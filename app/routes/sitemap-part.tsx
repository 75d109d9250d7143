/** /sitemaps/{n}.xml: one file of the sitemap index, when there are over 50 000 URLs (issue 3 item 9). */
import type { Route } from "./+types/sitemap-part";
import { buildSitemapPart } from "~/domain/search/sitemap.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const xml = await buildSitemapPart(context.db, context.config.publicUrl, params.file);
  if (xml === null) {
    return new Response(`Page not found: /sitemaps/${params.file}`, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
