import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { transformImage } from "./transform.server";

/** A noisy picture, so that quality changes the encoded size. */
async function photo(width: number, height: number, format: "png" | "jpeg" | "gif" | "webp") {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

describe("transformImage (issue 6 item 6)", () => {
  it("narrows to the asked width keeping the aspect ratio, and never enlarges", async () => {
    const source = await photo(1000, 500, "png");
    const narrow = await transformImage(source, { width: 320, quality: 100, accept: null });
    expect(await sharp(narrow.bytes).metadata()).toMatchObject({ format: "png", width: 320, height: 160 });
    const wide = await transformImage(source, { width: 3072, quality: 100, accept: null });
    expect(await sharp(wide.bytes).metadata()).toMatchObject({ width: 1000, height: 500 });
  });

  it("answers avif or webp when accepted, else the source format", async () => {
    const source = await photo(64, 64, "jpeg");
    expect((await transformImage(source, { width: undefined, quality: 80, accept: "image/avif,image/webp" })).contentType).toBe("image/avif");
    expect((await transformImage(source, { width: undefined, quality: 80, accept: "image/webp" })).contentType).toBe("image/webp");
    const fallback = await transformImage(source, { width: undefined, quality: 80, accept: "*/*" });
    expect(fallback.contentType).toBe("image/jpeg");
    expect((await sharp(fallback.bytes).metadata()).format).toBe("jpeg");
    const gif = await transformImage(await photo(32, 32, "gif"), { width: undefined, quality: 80, accept: "*/*" });
    expect((await sharp(gif.bytes).metadata()).format).toBe("gif");
  });

  it("encodes a lower quality smaller", async () => {
    const source = await photo(400, 300, "png");
    const high = await transformImage(source, { width: undefined, quality: 100, accept: "image/webp" });
    const low = await transformImage(source, { width: undefined, quality: 10, accept: "image/webp" });
    expect(low.bytes.byteLength).toBeLessThan(high.bytes.byteLength / 2);
  });

  it("refuses bytes that are not a supported picture", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    for (const bytes of [Buffer.from("root:x:0:0:root:/root:/bin/bash\n"), svg]) {
      await expect(transformImage(bytes, { width: 320, quality: 100, accept: null })).rejects.toMatchObject({ code: "unsupported_image", status: 400 });
    }
  });

  it("refuses a picture taller or wider than 8192 pixels before decoding it (a 1 × 49 000 000 PNG spent 58 s of CPU)", async () => {
    const tall = await sharp({ create: { width: 1, height: 20_000, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const wide = await sharp({ create: { width: 20_000, height: 1, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    for (const bytes of [tall, wide]) {
      const started = performance.now();
      await expect(transformImage(bytes, { width: 320, quality: 100, accept: "image/avif" })).rejects.toMatchObject({ code: "image_too_large", status: 413 });
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
