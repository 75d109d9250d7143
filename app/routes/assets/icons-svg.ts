import { iconSprite } from "~/lib/icon-sprite.server";

/**
 * GET /icons.svg: the icon sprite (app/lib/icon-sprite.server.ts). Pages ask for it with a version
 * (`?v=…`, app/lib/icons.ts) that changes with its content, so browsers may keep it for a year.
 */
export function loader() {
  return new Response(iconSprite(), {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" },
  });
}
