/**
 * GET /api/image?url&w&q — the image endpoint (docs/product/interface.md#images; issue 6 item 6; docs/decisions/0009-images.md).
 * `url`: a path on this site (/uploads/…, /images/…) or an absolute http(s) URL on this site or
 * on IMAGE_ALLOWED_HOSTS; `w`: width in pixels, snapped to 320, 640, 768, 1024, 1280, 1536,
 * 2048, 2560 or 3072 and never above the source's; `q`: quality 1-100 (default 100); `v`:
 * `placeholder` (10×10, quality 50) or `notification` (150×150 square), overriding `w` and `q`.
 * Answers the picture as avif or webp by the Accept header (else png, jpeg or gif like the
 * source), cached for a year (immutable, Vary: Accept). Errors are JSON with a stable code:
 * 400 `invalid_image_url`, `image_host_not_allowed`, `invalid_image_width`,
 * `invalid_image_quality`, `invalid_image_variant`, `unsupported_image`; 404 `image_not_found`; 413 `image_too_large`
 * (over 10 MB, 50 megapixels or 8192 pixels a side); 502 `image_fetch_failed`; 503 `image_busy`
 * (too many pictures being resized) and `image_timeout` (issue 13 item 6). A refused URL is never fetched. Resized pictures are kept in
 * DATA_DIR/cache/images (app/lib/images/cache.server.ts).
 */
export { methodNotAllowed as action } from "~/lib/api.server";
import path from "node:path";
import type { Route } from "./+types/image";
import { handleApi } from "~/lib/errors";
import { classifyImageUrl } from "~/lib/images/allow-list";
import { parseImageQuery } from "~/lib/images/params";
import { cachedTransformImage } from "~/lib/images/cache.server";
import { loadImageSource, publicDirectory } from "~/lib/images/source.server";
import { getStorage } from "~/lib/storage/storage.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const { config } = context;
    const query = parseImageQuery(new URL(request.url).searchParams);
    const source = classifyImageUrl(query.url, config.publicUrl, config.imageAllowedHosts);
    const bytes = await loadImageSource(source, {
      storage: getStorage(config),
      publicDir: publicDirectory(config.production),
      siteOrigin: config.publicUrl,
      allowedHosts: config.imageAllowedHosts,
    });
    const image = await cachedTransformImage(path.join(config.dataDir, "cache", "images"), bytes, {
      width: query.width,
      quality: query.quality,
      variant: query.variant,
      accept: request.headers.get("accept"),
    });
    return new Response(new Uint8Array(image.bytes), {
      headers: {
        "Content-Type": image.contentType,
        "Content-Length": String(image.bytes.byteLength),
        "Cache-Control": "public, max-age=31536000, immutable",
        Vary: "Accept",
      },
    });
  });
}
