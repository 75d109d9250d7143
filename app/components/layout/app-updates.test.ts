import { describe, expect, it } from "vitest";
import { CHUNK_RELOAD_KEY, isChunkLoadError, reloadAfterChunkError } from "./app-updates";

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

describe("the chunk reload guard (docs/product/routes.md#navigation-behaviour: 10 s in session storage)", () => {
  it("reloads once, not again within 10 000 ms, and again after", () => {
    const storage = memoryStorage();
    let reloads = 0;
    const reload = () => void reloads++;
    expect(reloadAfterChunkError(1_000_000, storage, reload)).toBe(true);
    expect(storage.items.get(CHUNK_RELOAD_KEY)).toBe("1000000");
    expect(reloadAfterChunkError(1_009_999, storage, reload)).toBe(false);
    expect(reloadAfterChunkError(1_010_000, storage, reload)).toBe(true);
    expect(reloads).toBe(2);
  });

  it("treats an unreadable stored time as no reload yet", () => {
    const storage = memoryStorage();
    storage.setItem(CHUNK_RELOAD_KEY, "garbage");
    let reloads = 0;
    expect(reloadAfterChunkError(5, storage, () => void reloads++)).toBe(true);
    expect(reloads).toBe(1);
  });

  it("recognises the browsers' failed dynamic import messages and nothing else", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: https://x/assets/post-abc.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Пост не найден"))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
