/** /sitemaps/{file}: one file of the sitemap index when there are over 50 000 URLs. STUB. */
export async function loader() {
  return new Response("Not found", { status: 404 });
}
