import { describe, expect, it } from "vitest";
import { DEFAULT_VOLUME, parseVolume } from "./volume";

describe("parseVolume", () => {
  it.each([
    [null, DEFAULT_VOLUME],
    ["", DEFAULT_VOLUME],
    ["0.8", 0.8],
    ["0", 0],
    ["1", 1],
    ["1.5", DEFAULT_VOLUME],
    ["-0.1", DEFAULT_VOLUME],
    ["громко", DEFAULT_VOLUME],
  ])("%s → %s", (stored, volume) => {
    expect(parseVolume(stored)).toBe(volume);
  });
  it("defaults to 0.5", () => expect(DEFAULT_VOLUME).toBe(0.5));
});
