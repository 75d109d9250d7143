import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AVATAR_SIZE, processAvatar } from "./avatar.server";

/** A solid picture: left half red, right half blue, so the crop can be checked. */
async function picture(width: number, height: number, format: "png" | "jpeg" | "webp" | "gif" | "avif"): Promise<Buffer> {
  const half = Math.floor(width / 2);
  return sharp({ create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .composite([{ input: { create: { width: width - half, height, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: half, top: 0 }])
    .toFormat(format)
    .toBuffer();
}

async function refusal(bytes: Uint8Array) {
  try {
    await processAvatar(bytes);
  } catch (error) {
    const e = error as { name: string; code: string; status: number; message: string; fieldErrors: Record<string, string[]> };
    return { name: e.name, code: e.code, status: e.status, message: e.message, field: e.fieldErrors.avatar?.[0] };
  }
  throw new Error("accepted");
}

describe("processAvatar (issue 6: members change their avatar)", () => {
  it("turns every accepted format into a 256×256 WebP", async () => {
    for (const format of ["png", "jpeg", "webp", "gif", "avif"] as const) {
      const result = await processAvatar(await picture(300, 200, format));
      expect(result.contentType).toBe("image/webp");
      const meta = await sharp(result.bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }, format).toEqual({ format: "webp", width: AVATAR_SIZE, height: AVATAR_SIZE });
    }
  });

  it("crops a wide picture around its centre", async () => {
    // 600×200, red | blue: the centred 200×200 square is half red, half blue.
    const { bytes } = await processAvatar(await picture(600, 200, "png"));
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * AVATAR_SIZE + x) * 3, (y * AVATAR_SIZE + x) * 3 + 3)];
    const [lr, , lb] = pixel(20, 128);
    const [rr, , rb] = pixel(236, 128);
    expect(lr! > 200 && lb! < 60).toBe(true);
    expect(rb! > 200 && rr! < 60).toBe(true);
  });

  it("recognises the type by content, refusing other files with a Russian message", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .tiff()
      .toBuffer();
    for (const bytes of [Buffer.from("это не картинка, хоть файл и назван avatar.png"), svg, tiff, (await picture(40, 40, "png")).subarray(0, 30)]) {
      expect(await refusal(bytes)).toMatchObject({
        name: "ValidationFailed",
        code: "avatar_unsupported_type",
        status: 400,
        field: expect.stringMatching(/JPEG, PNG, WebP, GIF или AVIF/),
      });
    }
  });

  it("refuses an empty file and one over 10 MB", async () => {
    expect(await refusal(new Uint8Array())).toMatchObject({ code: "avatar_empty", message: "Файл пустой — выберите изображение" });
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    (await picture(10, 10, "png")).copy(big);
    expect(await refusal(big)).toMatchObject({ code: "avatar_too_large", message: "Файл слишком большой: не больше 10 МБ" });
  });

  it("refuses a picture whose header declares more than 50 megapixels (decompression bomb)", async () => {
    // A small PNG whose header claims 10000×6000: rewrite IHDR's width and height and its CRC.
    const bomb = Buffer.from(await picture(16, 16, "png"));
    bomb.writeUInt32BE(10_000, 16);
    bomb.writeUInt32BE(6_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect((await sharp(bomb).metadata()).width).toBe(10_000);
    expect(await refusal(bomb)).toMatchObject({ code: "avatar_unsupported_type" });
  });
});
