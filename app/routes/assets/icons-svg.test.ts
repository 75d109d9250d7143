import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Heart } from "lucide-react";
import { describe, expect, it } from "vitest";
import { Icon } from "~/components/ui/icon";
import { loader } from "./icons-svg";
import { iconSprite } from "~/lib/icon-sprite.server";
import { SPRITE_ICON_NAMES, SPRITE_URL } from "~/lib/icons";

describe("the icon sprite (issue 12, page weight)", () => {
  it("holds one symbol per name with lucide's own drawing", () => {
    const sprite = iconSprite();
    const ids = [...sprite.matchAll(/<symbol id="([a-z0-9-]+)" viewBox="0 0 24 24">(.*?)<\/symbol>/g)];
    expect(ids.map((m) => m[1])).toEqual([...SPRITE_ICON_NAMES]);
    for (const [, , drawing] of ids) expect(drawing).toMatch(/^<(path|circle|rect|line|polyline)\b/);
    // The heart is the same drawing lucide-react puts inline.
    const inline = renderToStaticMarkup(createElement(Heart));
    const heart = /<symbol id="heart" viewBox="0 0 24 24">(.*?)<\/symbol>/.exec(sprite)![1];
    expect(inline).toContain(heart);
  });

  it("an icon is a short <use> of the sprite, hidden from screen readers unless labelled", () => {
    const decorative = renderToStaticMarkup(createElement(Icon, { name: "heart", className: "size-4" }));
    expect(decorative).toBe(`<svg class="icon size-4" aria-hidden="true"><use href="${SPRITE_URL}#heart"></use></svg>`);
    // A quarter of lucide-react's inline drawing of the same icon.
    expect(decorative.length * 3).toBeLessThan(renderToStaticMarkup(createElement(Heart, { className: "size-4" })).length);
    const labelled = renderToStaticMarkup(createElement(Icon, { name: "file-text", "aria-label": "Статья" }));
    expect(labelled).toContain('role="img"');
    expect(labelled).toContain('aria-label="Статья"');
    expect(labelled).not.toContain("aria-hidden");
  });

  it("is served as SVG that browsers may keep, since its URL changes with it", async () => {
    const response = loader();
    expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    expect(await response.text()).toBe(iconSprite());
    expect(SPRITE_URL).toMatch(/^\/icons\.svg\?v=[0-9a-f]{8}$/);
  });
});
