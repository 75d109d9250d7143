/**
 * Where uploaded files live (issue 6 item 6: "uploads stored under DATA_DIR (a storage
 * interface so S3-compatible storage can follow)"). Callers use the `FileStorage` interface
 * only; `getStorage` picks the implementation. Today that is LocalStorage in
 * DATA_DIR/uploads, which server/index.js serves at /uploads; an S3-compatible one
 * implements the same four methods and is chosen here by configuration.
 */
import type { AppConfig } from "../config.server";
import { LocalStorage } from "./local.server";
import type { FileStorage } from "./types";

export { assertStorageKey, type FileStorage, type StoredFile } from "./types";

const byConfig = new Map<string, FileStorage>();

/** The storage of this process: local files under DATA_DIR/uploads. */
export function getStorage(config: Pick<AppConfig, "dataDir">): FileStorage {
  let storage = byConfig.get(config.dataDir);
  if (!storage) {
    storage = new LocalStorage(config.dataDir);
    byConfig.set(config.dataDir, storage);
  }
  return storage;
}
