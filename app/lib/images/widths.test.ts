import { describe, expect, it } from "vitest";
import { parseImageQuery, pickFormat } from "./params";
import { IMAGE_WIDTHS, imageSrcSet, imageUrl, optimizedImageUrl, snapWidth } from "./widths";

describe("image widths (docs/product/limits.md#uploads-and-images: screens 320-1536 at densities 1 and 2)", () => {
  it("lists every screen width at both densities, ascending", () => {
    expect(IMAGE_WIDTHS).toEqual([320, 640, 768, 1024, 1280, 1536, 2048, 2560, 3072]);
  });

  it("snaps a width to the nearest configured one, ties going up", () => {
    expect(snapWidth(1)).toBe(320);
    expect(snapWidth(320)).toBe(320);
    expect(snapWidth(479)).toBe(320);
    expect(snapWidth(480)).toBe(640);
    expect(snapWidth(700)).toBe(640);
    expect(snapWidth(705)).toBe(768);
    expect(snapWidth(1100)).toBe(1024);
    expect(snapWidth(1900)).toBe(2048);
    expect(snapWidth(50_000)).toBe(3072);
  });

  it("builds endpoint URLs and a 1x/2x srcSet with snapped widths", () => {
    expect(imageUrl("/uploads/a b.png", { width: 300, quality: 80 })).toBe("/api/image?url=%2Fuploads%2Fa+b.png&w=320&q=80");
    expect(imageUrl("/images/x.png")).toBe("/api/image?url=%2Fimages%2Fx.png");
    expect(imageSrcSet("/images/x.png", 640)).toBe("/api/image?url=%2Fimages%2Fx.png&w=640 1x, /api/image?url=%2Fimages%2Fx.png&w=1280 2x");
  });

  it("sends only this site's raster pictures through the endpoint", () => {
    expect(optimizedImageUrl("/uploads/backgrounds/1.jpg", { width: 1536 })).toBe("/api/image?url=%2Fuploads%2Fbackgrounds%2F1.jpg&w=1536");
    expect(optimizedImageUrl("/images/bg.PNG?v=2")).toBe("/api/image?url=%2Fimages%2Fbg.PNG%3Fv%3D2");
    // SVG pictures (the demo's background) load as they are: the endpoint refuses SVG.
    for (const src of [
      "/images/backgrounds/main.svg",
      "/uploads/avatars/admin.svg",
      "/uploads/avatars/a.SVG?v=2",
      "https://cdn.example.com/a.png",
      "//cdn.example.com/a.png",
      "data:image/png;base64,AA",
    ]) {
      expect(optimizedImageUrl(src, { width: 640 })).toBe(src);
    }
  });
});

describe("image query (docs/product/interface.md#images: url, w, q; default quality 100)", () => {
  const parse = (query: string) => parseImageQuery(new URLSearchParams(query));
  const codeOf = (query: string) => {
    try {
      parse(query);
    } catch (error) {
      return (error as { code: string }).code;
    }
    return "none";
  };

  it("reads url, snaps w and defaults q to 100", () => {
    expect(parse("url=/images/a.png&w=700")).toEqual({ url: "/images/a.png", width: 640, quality: 100 });
    expect(parse("url=/images/a.png&q=40")).toEqual({ url: "/images/a.png", width: undefined, quality: 40 });
  });

  it("refuses a missing url and malformed widths and qualities with stable codes", () => {
    expect(codeOf("w=320")).toBe("invalid_image_url");
    for (const w of ["0", "-5", "abc", "12.5", "1e3", "100001"]) expect(codeOf(`url=/a.png&w=${w}`)).toBe("invalid_image_width");
    for (const q of ["0", "101", "x", "50.5", "-1"]) expect(codeOf(`url=/a.png&q=${q}`)).toBe("invalid_image_quality");
  });
});

describe("output format by Accept", () => {
  const png = { format: "png", hasAlpha: true };
  it("prefers avif, then webp, as the browser accepts them", () => {
    expect(pickFormat("image/avif,image/webp,image/apng,*/*;q=0.8", png)).toBe("avif");
    expect(pickFormat("image/webp,*/*", png)).toBe("webp");
    expect(pickFormat("image/avif;q=0, image/webp", png)).toBe("webp");
  });

  it("otherwise keeps png, jpeg and gif, and turns webp or avif sources into png or jpeg", () => {
    expect(pickFormat("*/*", png)).toBe("png");
    expect(pickFormat(null, { format: "jpeg", hasAlpha: false })).toBe("jpeg");
    expect(pickFormat("image/*", { format: "gif", hasAlpha: true })).toBe("gif");
    expect(pickFormat(null, { format: "webp", hasAlpha: true })).toBe("png");
    expect(pickFormat(null, { format: "avif", hasAlpha: false })).toBe("jpeg");
  });
});
