import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readAudioFile } from "./audio-file.server";

const demo = (file: string) => readFileSync(path.resolve("app/db/seed/music", file));

describe("readAudioFile (tags read with music-metadata)", () => {
  it("reads the title, artist, duration and embedded cover of an MP3", async () => {
    const info = await readAudioFile(demo("garant-spit-spokojno.mp3"), "whatever.bin");
    expect(info).toMatchObject({ audioType: "audio/mpeg", extension: "mp3", title: "Гарант спит спокойно", artist: "Восьмибитный Кот" });
    expect(info.durationMs).toBeGreaterThan(27_500);
    expect(info.durationMs).toBeLessThan(28_500);
    expect(info.cover?.format).toBe("image/jpeg");
    expect(info.cover?.bytes.byteLength).toBeGreaterThan(1000);
  });

  it("falls back to the file name when the file has no title tag", async () => {
    const bytes = demo("garant-spit-spokojno.mp3");
    // Skip the ID3 tag: its size is the syncsafe integer in bytes 6-9, after the 10-byte header.
    const tagSize = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!);
    const info = await readAudioFile(bytes.subarray(tagSize), "Ночной рынок.mp3");
    expect(info).toMatchObject({ title: "Ночной рынок", artist: "", cover: null, audioType: "audio/mpeg" });
  });

  it.each([
    ["a text file", Buffer.from("Это просто текст, а не музыка. ".repeat(200)), "audio_unsupported_type", /не аудиофайл/],
    ["a PNG picture", Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"), "audio_unsupported_type", /не аудиофайл/],
    ["an empty file", Buffer.alloc(0), "audio_empty", /пустой/],
    ["a file over 30 MB", Buffer.alloc(30 * 1024 * 1024 + 1), "audio_too_large", /30 МБ/],
  ])("refuses %s with a Russian message", async (_what, bytes, code, message) => {
    await expect(readAudioFile(bytes, "track.mp3")).rejects.toMatchObject({ code, status: 400, message: expect.stringMatching(message) });
  });
});
