/** The storage interface and its key rule, shared by every implementation (see storage.server.ts). */

/** A stored file: its bytes and MIME type. */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

export interface FileStorage {
  /** Saves `bytes` under `key` (see assertStorageKey), replacing any file there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The file under `key`, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** The size in bytes of the file under `key`, or null when there is none. */
  size(key: string): Promise<number | null>;
  /**
   * Bytes `start`…`end` (inclusive, 0-based) of the file under `key` as a stream, for HTTP range
   * requests (audio seeking); null when there is no such file. The caller keeps the range inside the size.
   */
  stream(key: string, start: number, end: number): Promise<ReadableStream<Uint8Array> | null>;
  /** Removes the file under `key`; no error when there is none. */
  delete(key: string): Promise<void>;
  /** The URL browsers load the file from (a path on this site for local storage: /uploads/{key}). */
  publicUrl(key: string): string;
}

/**
 * Storage keys are relative paths of segments of letters, digits, `.`, `_` and `-`, each
 * starting with a letter or digit (so no `..`, no leading `/`), up to 200 characters, for
 * example `avatars/42/3f9c.webp`. The extension names the type: local storage serves files by it.
 * Throws an Error (a programming mistake, not user input) for anything else.
 */
export function assertStorageKey(key: string): void {
  if (key.length > 200 || !/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(key)) {
    throw new Error(`Invalid storage key "${key}"`);
  }
}
