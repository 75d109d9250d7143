import { randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateParts, gzipFromParts } from "./page-gzip.server";

/** A page-like text: repetitive markup with Cyrillic, so back-references abound. */
function markup(seed: number, count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `<li class="comment" data-id="${seed + i}"><p>Продам велосипед, почти новый №${i % 7}</p><a href="/post/${seed}">ссылка</a></li>`,
  ).join("\n");
}

function answer(parts: Buffer[], fills: Buffer[]): Buffer {
  return Buffer.concat(parts.flatMap((part, i) => (i < fills.length ? [part, fills[i]!] : [part])));
}

describe("gzip from stored parts", () => {
  it("gunzips to the page with each answer's own holes, and is about as small as compressing it whole", () => {
    const parts = [markup(1, 200), `" nonce="`, markup(2, 3), "", markup(3, 900)].map((text) => Buffer.from(text));
    const holeLengths = [24, 87, 24, 87];
    const deflated = deflateParts(parts, holeLengths);
    for (let reader = 0; reader < 3; reader++) {
      const fills = holeLengths.map((length) => Buffer.from(randomBytes(length).toString("base64").slice(0, length)));
      const gzip = gzipFromParts(parts, deflated, holeLengths, fills);
      expect(gunzipSync(gzip).equals(answer(parts, fills))).toBe(true);
      expect(gzip.length).toBeLessThan(gzipSync(answer(parts, fills)).length * 1.2);
    }
  });

  it("compresses whole an answer whose holes are not as long as the stored page's", () => {
    const parts = [markup(1, 50), markup(2, 50)].map((text) => Buffer.from(text));
    const deflated = deflateParts(parts, [10]);
    const fills = [Buffer.from("a token longer than ten bytes")];
    expect(gunzipSync(gzipFromParts(parts, deflated, [10], fills)).equals(answer(parts, fills))).toBe(true);
  });

  it("stays correct for a page holding NUL bytes, which the holes' stand-ins are", () => {
    const parts = [`${markup(1, 20)}\u0000\u0000\u0000\u0000`, `\u0000\u0000\u0000\u0000${markup(1, 20)}`].map((text) => Buffer.from(text));
    const deflated = deflateParts(parts, [4]);
    const fills = [Buffer.from("abcd")];
    expect(gunzipSync(gzipFromParts(parts, deflated, [4], fills)).equals(answer(parts, fills))).toBe(true);
  });

  it("splits a hole longer than a stored block can hold", () => {
    const parts = [markup(1, 5), markup(2, 5)].map((text) => Buffer.from(text));
    const fills = [Buffer.from("x".repeat(70_000))];
    const gzip = gzipFromParts(parts, deflateParts(parts, [70_000]), [70_000], fills);
    expect(gunzipSync(gzip).equals(answer(parts, fills))).toBe(true);
  });
});
