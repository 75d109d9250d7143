/**
 * A disk cache of resized pictures under DATA_DIR/cache/images (docs/decisions/0009-images.md),
 * so the main-page background is encoded once, not once per visitor. Entries are keyed by the
 * SHA-256 of the source bytes, the width, the quality and what the Accept header allows, so a
 * changed source never serves a stale picture. Safe to delete at any time.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { createWorkGate } from "./gate.server";
import { pickFormat } from "./params";
import { transformImage, type TransformedImage } from "./transform.server";
import { logger } from "../logger.server";

type Options = Parameters<typeof transformImage>[1];

/**
 * Pictures resized at once in this process (one per core of a small server) and how many more
 * may wait; the rest are refused with 503 `image_busy` (issue 13 item 6).
 */
export const IMAGE_WORK_LIMITS = { concurrency: 2, queue: 16 } as const;
const gate = createWorkGate(IMAGE_WORK_LIMITS);

const inFlight = new Map<string, Promise<{ bytes: Buffer; contentType: string }>>();

/** The cache key's Accept part: what pickFormat would choose for a source it cannot name. */
function acceptClass(accept: string | null): string {
  return pickFormat(accept, { format: "unknown", hasAlpha: false });
}

/**
 * transformImage through the cache in `cacheDir`: a hit reads the file, a miss transforms,
 * stores (temp file + rename) and answers; identical concurrent misses share one transform.
 * Misses run through a gate of IMAGE_WORK_LIMITS (AppError 503 `image_busy` when it is full).
 * Errors are those of transformImage; a broken cache file is treated as a miss.
 */
export async function cachedTransformImage(cacheDir: string, source: Uint8Array, options: Options): Promise<Pick<TransformedImage, "bytes" | "contentType">> {
  const key = createHash("sha256")
    .update(source)
    .update(`|${options.width ?? "source"}|${options.quality}|${acceptClass(options.accept)}|${options.variant ?? ""}`)
    .digest("hex");
  const file = path.join(cacheDir, key.slice(0, 2), key);
  const hit = await readEntry(file);
  if (hit) return hit;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      const image = await gate.run(() => transformImage(source, options));
      await writeEntry(file, image).catch((error: unknown) => logger.error({ err: error, area: "images" }, "image cache write failed"));
      return image;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** An entry is the content type, a newline, then the picture's bytes. */
async function readEntry(file: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  try {
    const data = await readFile(file);
    const newline = data.indexOf(10);
    if (newline < 1 || newline > 40) return null;
    const contentType = data.subarray(0, newline).toString("ascii");
    if (!contentType.startsWith("image/")) return null;
    return { bytes: data.subarray(newline + 1), contentType };
  } catch {
    return null;
  }
}

async function writeEntry(file: string, image: { bytes: Buffer; contentType: string }): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temporary, Buffer.concat([Buffer.from(`${image.contentType}\n`, "ascii"), image.bytes]));
  await rename(temporary, file);
}
