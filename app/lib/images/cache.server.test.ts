import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { cachedTransformImage } from "./cache.server";

const cacheDir = mkdtempSync(path.join(tmpdir(), "image-cache-test-"));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const entries = () => readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
const picture = (colour: string) =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe("the resized-picture cache (DATA_DIR/cache/images)", () => {
  it("stores one entry per source, width, quality and accepted format, and answers the same bytes from it", async () => {
    const red = await picture("#f00");
    const options = { width: 320, quality: 80, accept: "image/webp" };
    const [first, concurrent] = await Promise.all([cachedTransformImage(cacheDir, red, options), cachedTransformImage(cacheDir, red, options)]);
    expect(entries()).toHaveLength(1);
    expect(concurrent.bytes.equals(first.bytes)).toBe(true);
    const again = await cachedTransformImage(cacheDir, red, options);
    expect(again).toMatchObject({ contentType: "image/webp" });
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect((await sharp(again.bytes).metadata()).width).toBe(320);

    await cachedTransformImage(cacheDir, red, { ...options, accept: "image/avif" });
    await cachedTransformImage(cacheDir, red, { ...options, quality: 50 });
    await cachedTransformImage(cacheDir, red, { ...options, width: 640 });
    await cachedTransformImage(cacheDir, await picture("#00f"), options);
    expect(entries()).toHaveLength(5);
  });

  it("treats a damaged entry as a miss and rewrites it", async () => {
    const green = await picture("#0f0");
    const options = { width: 320, quality: 70, accept: null };
    const before = new Set(entries().map((e) => path.join(e.parentPath, e.name)));
    await cachedTransformImage(cacheDir, green, options);
    const file = entries()
      .map((e) => path.join(e.parentPath, e.name))
      .find((f) => !before.has(f))!;
    writeFileSync(file, "garbage without a type line");
    const answer = await cachedTransformImage(cacheDir, green, options);
    expect(answer.contentType).toBe("image/png");
    expect((await sharp(answer.bytes).metadata()).width).toBe(320);
  });
});
