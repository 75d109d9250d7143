/**
 * Reading the source bytes of the image endpoint: paths on this site from disk (uploads from
 * storage, everything else from the public directory), allowed remote hosts over http(s)
 * with a timeout, a size cap and no redirect to a host outside the allow-list.
 */
import { open } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "../config.server";
import { AppError, NotFound } from "../errors";
import type { FileStorage } from "../storage/storage.server";
import { classifyImageUrl, type ImageSource } from "./allow-list";

/** The largest source read, local or remote, in bytes (10 MB). */
export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;
/** How long a remote host has to answer completely, in ms. */
export const FETCH_TIMEOUT_MS = 10_000;
/** Redirects followed, each checked against the allow-list like the first URL. */
export const MAX_REDIRECTS = 3;

export interface SourceOptions {
  storage: FileStorage;
  /** Absolute directory of the site's public files (see publicDirectory). */
  publicDir: string;
  /** This site's origin (PUBLIC_URL). */
  siteOrigin: string;
  allowedHosts: readonly string[];
}

/**
 * The public files' directory: BUILD_DIR/client in production (what server/index.js serves),
 * ./public in development.
 */
export function publicDirectory(production: boolean, buildDir: string = getConfig().buildDir): string {
  return production ? path.resolve(buildDir, "client") : path.resolve("public");
}

const notFound = () => new NotFound("Изображение не найдено", "image_not_found");
const tooLarge = () => new AppError("image_too_large", 413, "Изображение слишком большое: не больше 10 МБ");
const fetchFailed = () => new AppError("image_fetch_failed", 502, "Не удалось загрузить изображение");

/**
 * The bytes of `source` (from classifyImageUrl). Throws NotFound `image_not_found` (404),
 * AppError `image_too_large` (413) above MAX_SOURCE_BYTES, `image_fetch_failed` (502) when
 * the remote host fails, answers non-2xx or times out, and the ValidationFailed of
 * classifyImageUrl when a redirect leads off the allow-list.
 */
export async function loadImageSource(source: ImageSource, options: SourceOptions): Promise<Uint8Array> {
  let current = source;
  for (let hop = 0; ; hop++) {
    if (current.kind === "local") return readLocal(current.path, options);
    const response = await fetchOnce(current.url);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw fetchFailed();
      current = classifyImageUrl(new URL(location, current.url).href, options.siteOrigin, options.allowedHosts);
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw fetchFailed();
    }
    return readCapped(response);
  }
}

async function fetchOnce(url: URL): Promise<Response> {
  try {
    return await fetch(url, {
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { Accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9" },
    });
  } catch {
    throw fetchFailed();
  }
}

/** Reads the body up to MAX_SOURCE_BYTES, stopping (and refusing) as soon as it is exceeded. */
async function readCapped(response: Response): Promise<Uint8Array> {
  if (Number(response.headers.get("content-length") ?? 0) > MAX_SOURCE_BYTES) {
    await response.body!.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_SOURCE_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fetchFailed();
  }
  return Buffer.concat(chunks, total);
}

/** /uploads/{key} from storage; any other path from the public directory, never outside it. */
async function readLocal(pathname: string, options: SourceOptions): Promise<Uint8Array> {
  if (pathname.startsWith("/uploads/")) {
    const key = pathname.slice("/uploads/".length);
    if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(key)) throw notFound();
    const file = await options.storage.get(key);
    if (!file) throw notFound();
    if (file.bytes.byteLength > MAX_SOURCE_BYTES) throw tooLarge();
    return file.bytes;
  }
  const root = path.resolve(options.publicDir);
  const file = path.resolve(root, `.${pathname}`);
  if (!file.startsWith(root + path.sep)) throw notFound();
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    throw notFound();
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notFound();
    if (stat.size > MAX_SOURCE_BYTES) throw tooLarge();
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
