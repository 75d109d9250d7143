import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getStorage } from "./storage.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "storage-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("local file storage (DATA_DIR/uploads, served at /uploads)", () => {
  const storage = getStorage({ dataDir });

  it("stores, reads back, replaces and deletes a file under DATA_DIR/uploads", async () => {
    expect(await storage.get("avatars/1/a.webp")).toBeNull();
    await storage.put("avatars/1/a.webp", Buffer.from("first"), "image/webp");
    await storage.put("avatars/1/a.webp", Buffer.from("second"), "image/webp");
    expect(await storage.get("avatars/1/a.webp")).toEqual({ bytes: Buffer.from("second"), contentType: "image/webp" });
    expect(existsSync(path.join(dataDir, "uploads/avatars/1/a.webp"))).toBe(true);
    expect(readdirSync(path.join(dataDir, "uploads/avatars/1"))).toEqual(["a.webp"]);
    expect(storage.publicUrl("avatars/1/a.webp")).toBe("/uploads/avatars/1/a.webp");
    await storage.delete("avatars/1/a.webp");
    await storage.delete("avatars/1/a.webp");
    expect(await storage.get("avatars/1/a.webp")).toBeNull();
  });

  it("refuses keys that could leave the uploads directory", async () => {
    for (const key of ["../secret", "/etc/passwd", "a/../../b", "a//b", ".hidden", "a\\b", ""]) {
      await expect(storage.put(key, Buffer.from("x"), "text/plain"), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe("ranges of stored files (audio seeking)", () => {
  const storage = getStorage({ dataDir });

  it("reports the size and streams an inclusive byte range; null for a missing file", async () => {
    await storage.put("music/a.mp3", Buffer.from("0123456789"), "audio/mpeg");
    expect(await storage.size("music/a.mp3")).toBe(10);
    const stream = await storage.stream("music/a.mp3", 2, 5);
    expect(Buffer.from(await new Response(stream).arrayBuffer()).toString()).toBe("2345");
    expect(await storage.size("music/missing.mp3")).toBeNull();
    expect(await storage.stream("music/missing.mp3", 0, 1)).toBeNull();
    expect((await storage.get("music/a.mp3"))?.contentType).toBe("audio/mpeg");
  });
});
