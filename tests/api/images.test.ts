/**
 * The image endpoint over HTTP (issue 6 item 6; docs/product/interface.md#images): GET /api/image?url&w&q.
 * A server of its own runs with IMAGE_ALLOWED_HOSTS naming one local "remote" host; a second
 * local host stays off the list and counts every request it gets, to prove a refused URL is
 * never fetched, not even through a redirect.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../setup/server";

let site: RunningServer;
let allowed: Server;
let refused: Server;
let allowedOrigin: string;
let refusedOrigin: string;
/** Requests the host outside the allow-list received. */
let refusedHits = 0;

/** A 2000×1000 picture with some detail, so that quality changes the size. */
async function photo(format: "png" | "jpeg"): Promise<Buffer> {
  const width = 2000;
  const height = 1000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const png = await photo("png");
  const jpeg = await photo("jpeg");
  refused = createServer((_req, res) => {
    refusedHits++;
    res.writeHead(200, { "Content-Type": "image/jpeg" }).end(jpeg);
  });
  refusedOrigin = await listen(refused);
  allowed = createServer((req, res) => {
    if (req.url === "/photo.jpg") return res.writeHead(200, { "Content-Type": "image/jpeg" }).end(jpeg);
    if (req.url === "/passwd.png") return res.writeHead(200, { "Content-Type": "image/png" }).end("root:x:0:0:root:/root:/bin/bash\n");
    if (req.url === "/to-refused") return res.writeHead(302, { Location: `${refusedOrigin}/photo.jpg` }).end();
    if (req.url === "/to-photo") return res.writeHead(301, { Location: "/photo.jpg" }).end();
    if (req.url === "/huge.jpg") {
      // 11 MB without Content-Length: the cap must stop reading, not trust a header.
      res.writeHead(200, { "Content-Type": "image/jpeg" });
      for (let i = 0; i < 11; i++) res.write(Buffer.alloc(1024 * 1024, i));
      return res.end();
    }
    res.writeHead(404).end();
  });
  allowedOrigin = await listen(allowed);
  site = await startServer({ IMAGE_ALLOWED_HOSTS: new URL(allowedOrigin).host });
  mkdirSync(path.join(site.dataDir, "uploads/test"), { recursive: true });
  writeFileSync(path.join(site.dataDir, "uploads/test/photo.png"), png);
  writeFileSync(path.join(site.dataDir, "uploads/test/notes.png"), "not a picture, whatever the name says");
});

afterAll(async () => {
  await site?.stop();
  allowed?.close();
  refused?.close();
});

const get = (query: Record<string, string>, accept = "*/*") =>
  fetch(`${site.baseUrl}/api/image?${new URLSearchParams(query)}`, { headers: { Accept: accept } });

async function picture(response: Response) {
  expect(
    response.status,
    await response
      .clone()
      .text()
      .catch(() => ""),
  ).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return {
    type: response.headers.get("content-type"),
    format: meta.format,
    compression: meta.compression,
    width: meta.width,
    height: meta.height,
    size: bytes.byteLength,
  };
}

async function refusal(response: Response) {
  const body = (await response.json()) as { success: boolean; errors: { code: string; message: string } };
  return { status: response.status, success: body.success, code: body.errors.code, russian: /[а-я]/i.test(body.errors.message) };
}

describe("GET /api/image: widths, formats, quality, caching", () => {
  it("snaps w to the nearest screen width and answers avif to a browser that reads it, cached for a year", async () => {
    const response = await get({ url: "/uploads/test/photo.png", w: "700" }, "image/avif,image/webp,image/apng,image/*,*/*;q=0.8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("vary")).toMatch(/Accept/);
    expect(await picture(response)).toMatchObject({ type: "image/avif", format: "heif", compression: "av1", width: 640, height: 320 });
  });

  it("answers webp when only webp is accepted, and the source format otherwise", async () => {
    expect(await picture(await get({ url: "/uploads/test/photo.png", w: "320" }, "image/webp,*/*"))).toMatchObject({
      type: "image/webp",
      format: "webp",
      width: 320,
    });
    expect(await picture(await get({ url: "/uploads/test/photo.png", w: "1100" }))).toMatchObject({
      type: "image/png",
      format: "png",
      width: 1024,
      height: 512,
    });
    expect(await picture(await get({ url: `${allowedOrigin}/photo.jpg`, w: "1536" }))).toMatchObject({ type: "image/jpeg", format: "jpeg", width: 1536 });
  });

  it("v=placeholder is a 10×10 (fit inside) at quality 50, v=notification a 150×150 square; an unknown v is refused", async () => {
    // The source is 2000×1000, so the placeholder keeps the ratio inside 10×10.
    expect(await picture(await get({ url: "/uploads/test/photo.png", v: "placeholder" }, "image/webp"))).toMatchObject({
      format: "webp",
      width: 10,
      height: 5,
    });
    expect(await picture(await get({ url: `${allowedOrigin}/photo.jpg`, v: "notification" }, "image/webp"))).toMatchObject({ width: 150, height: 150 });
    expect(await refusal(await get({ url: "/uploads/test/photo.png", v: "huge" }))).toEqual({
      status: 400,
      success: false,
      code: "invalid_image_variant",
      russian: true,
    });
  });

  it("never enlarges: a width above the source's keeps the source's", async () => {
    expect(await picture(await get({ url: `${allowedOrigin}/photo.jpg`, w: "3000" }, "image/webp"))).toMatchObject({ width: 2000, height: 1000 });
    expect(await picture(await get({ url: `${allowedOrigin}/photo.jpg` }, "image/webp"))).toMatchObject({ width: 2000 });
  });

  it("q lowers the quality (and the size); the default is 100", async () => {
    const best = await picture(await get({ url: "/uploads/test/photo.png", w: "640" }, "image/webp"));
    const byDefault = await picture(await get({ url: "/uploads/test/photo.png", w: "640", q: "100" }, "image/webp"));
    const low = await picture(await get({ url: "/uploads/test/photo.png", w: "640", q: "20" }, "image/webp"));
    expect(byDefault.size).toBe(best.size);
    expect(low.size).toBeLessThan(best.size / 2);
  });

  it("keeps resized pictures in DATA_DIR/cache/images, and a replaced upload is not served stale", async () => {
    const file = path.join(site.dataDir, "uploads/test/changing.png");
    writeFileSync(
      file,
      await sharp({ create: { width: 400, height: 400, channels: 3, background: "#f00" } })
        .png()
        .toBuffer(),
    );
    const first = await picture(await get({ url: "/uploads/test/changing.png", w: "1024" }, "image/webp"));
    const again = await picture(await get({ url: "/uploads/test/changing.png", w: "1024" }, "image/webp"));
    expect(again).toEqual(first);
    expect(readdirSync(path.join(site.dataDir, "cache/images"), { recursive: true }).length).toBeGreaterThan(0);
    writeFileSync(
      file,
      await sharp({ create: { width: 500, height: 250, channels: 3, background: "#00f" } })
        .png()
        .toBuffer(),
    );
    expect(await picture(await get({ url: "/uploads/test/changing.png", w: "1024" }, "image/webp"))).toMatchObject({ width: 500, height: 250 });
  });

  it("reads the site's own absolute URLs from disk", async () => {
    const own = site.baseUrl.replace("127.0.0.1", "localhost"); // PUBLIC_URL defaults to http://localhost:PORT
    expect(await picture(await get({ url: `${own}/uploads/test/photo.png`, w: "320" }))).toMatchObject({ format: "png", width: 320 });
  });
});

describe("GET /api/image: hosts (no server-side request forgery)", () => {
  it("fetches from a host on IMAGE_ALLOWED_HOSTS, following a redirect that stays on it", async () => {
    expect(await picture(await get({ url: `${allowedOrigin}/to-photo`, w: "640" }, "image/webp"))).toMatchObject({ format: "webp", width: 640 });
  });

  it("refuses a host outside the list with 400 image_host_not_allowed, without fetching it", async () => {
    const before = refusedHits;
    expect(await refusal(await get({ url: `${refusedOrigin}/photo.jpg`, w: "640" }))).toEqual({
      status: 400,
      success: false,
      code: "image_host_not_allowed",
      russian: true,
    });
    expect(await refusal(await get({ url: "http://169.254.169.254/latest/meta-data/" }))).toMatchObject({ status: 400, code: "image_host_not_allowed" });
    expect(await refusal(await get({ url: `${allowedOrigin}/to-refused` }))).toMatchObject({ status: 400, code: "image_host_not_allowed" });
    expect(refusedHits).toBe(before);
  });

  it("refuses other schemes, protocol-relative URLs and path traversal", async () => {
    for (const url of [
      "file:///etc/passwd",
      "/uploads/../../etc/passwd",
      "/uploads/%2e%2e/%2e%2e/etc/passwd",
      "/images/..%2f..%2f..%2fetc/passwd",
      `//${new URL(refusedOrigin).host}/photo.jpg`,
    ]) {
      expect(await refusal(await get({ url })), url).toEqual({ status: 400, success: false, code: "invalid_image_url", russian: true });
    }
    expect(refusedHits).toBe(0);
  });

  it("refuses content that is not a picture, whatever its name or declared type", async () => {
    expect(await refusal(await get({ url: `${allowedOrigin}/passwd.png` }))).toMatchObject({ status: 400, code: "unsupported_image" });
    expect(await refusal(await get({ url: "/uploads/test/notes.png" }))).toMatchObject({ status: 400, code: "unsupported_image" });
    expect(await refusal(await get({ url: "/images/default-avatar.svg" }))).toMatchObject({ status: 400, code: "unsupported_image" });
  });

  it("refuses a source over 10 MB with 413, and a missing one with 404", async () => {
    expect(await refusal(await get({ url: `${allowedOrigin}/huge.jpg` }))).toMatchObject({ status: 413, code: "image_too_large" });
    expect(await refusal(await get({ url: "/uploads/test/missing.png" }))).toMatchObject({ status: 404, code: "image_not_found" });
    expect(await refusal(await get({ url: `${allowedOrigin}/missing.jpg` }))).toMatchObject({ status: 502, code: "image_fetch_failed" });
  });
});

describe("GET /api/image: bad parameters are 400 with a stable code, never 500", () => {
  it.each([
    [{ w: "640" }, "invalid_image_url"],
    [{ url: "/uploads/test/photo.png", w: "wide" }, "invalid_image_width"],
    [{ url: "/uploads/test/photo.png", w: "0" }, "invalid_image_width"],
    [{ url: "/uploads/test/photo.png", w: "-320" }, "invalid_image_width"],
    [{ url: "/uploads/test/photo.png", q: "0" }, "invalid_image_quality"],
    [{ url: "/uploads/test/photo.png", q: "101" }, "invalid_image_quality"],
    [{ url: "/uploads/test/photo.png", q: "high" }, "invalid_image_quality"],
    [{ url: "not a url" }, "invalid_image_url"],
  ])("%o → %s", async (query, code) => {
    expect(await refusal(await get(query))).toEqual({ status: 400, success: false, code, russian: true });
  });

  it("answers other methods with 405", async () => {
    const response = await fetch(`${site.baseUrl}/api/image?url=/uploads/test/photo.png`, { method: "POST" });
    expect(response.status).toBe(405);
  });
});
