/**
 * /sitemap.xml: the public sections for now; the content issue adds posts, articles and
 * profiles with an index past 50 000 URLs.
 */
import type { Route } from "./+types/sitemap";

const PATHS = ["/", "/articles", "/search", "/leaderboard", "/faq", "/music", "/blacklist"];

export async function loader({ context }: Route.LoaderArgs) {
  const base = context.config.publicUrl;
  const urls = PATHS.map((path) => `  <url><loc>${base}${path}</loc></url>`).join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
