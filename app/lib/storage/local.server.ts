/** FileStorage on the local disk: DATA_DIR/uploads/{key}, served by server/index.js at /uploads/{key}. */
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { assertStorageKey, type FileStorage, type StoredFile } from "./types";

const TYPES_BY_EXTENSION: Record<string, string> = {
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".m4a": "audio/mp4",
  ".flac": "audio/flac",
};

export class LocalStorage implements FileStorage {
  /** Absolute directory holding the files (DATA_DIR/uploads). */
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(path.resolve(dataDir), "uploads");
  }

  /** Writes through a temporary file and a rename, so a reader never sees half a file. */
  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  }

  /** The type comes from the key's extension, the way /uploads serves it (application/octet-stream when unknown). */
  async get(key: string): Promise<StoredFile | null> {
    try {
      const bytes = await readFile(this.file(key));
      return { bytes, contentType: TYPES_BY_EXTENSION[path.extname(key).toLowerCase()] ?? "application/octet-stream" };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const info = await stat(this.file(key));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stream(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | null> {
    if ((await this.size(key)) === null) return null;
    return Readable.toWeb(createReadStream(this.file(key), { start, end })) as ReadableStream<Uint8Array>;
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  publicUrl(key: string): string {
    assertStorageKey(key);
    return `/uploads/${key}`;
  }

  private file(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, ...key.split("/"));
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR";
}
