import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getStorage } from "~/lib/storage/storage.server";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import { promoteToAdmin } from "../../../tests/setup/ledger";
import type { UserRow } from "../users/users.server";
import { deleteTrack, listAdminTracks, listTracks, moveTrack, recordPlay, updateTrack, uploadTrack } from "./tracks.server";

let t: TestDatabase;
let admin: UserRow;
let member: UserRow;
const dataDir = mkdtempSync(path.join(tmpdir(), "music-test-"));
const storage = getStorage({ dataDir });
const demo = (file: string) => readFileSync(path.resolve("app/db/seed/music", file));
const storedFiles = () => readdirSync(path.join(dataDir, "uploads"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = { ...(await makeUser(t.db)), role: "admin" };
  await promoteToAdmin(t.db, admin.id);
  member = await makeUser(t.db);
});
afterAll(async () => {
  await t?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`music tracks (${engine})`, () => {
  it("an admin uploads an MP3: tags, duration and cover come from the file, the audio and cover are stored", async () => {
    const track = await uploadTrack(t.db, storage, admin, { bytes: demo("garant-spit-spokojno.mp3"), fileName: "x.mp3" });
    expect(track).toMatchObject({ title: "Гарант спит спокойно", artist: "Восьмибитный Кот", audioType: "audio/mpeg", playCount: 0 });
    expect(track.audioUrl).toBe(`/api/music/${track.id}/audio`);
    expect(track.coverUrl).toMatch(/^\/uploads\/music\/covers\/[0-9a-f]+\.webp$/);
    const cover = await storage.get(track.coverUrl!.replace("/uploads/", ""));
    expect(await sharp(cover!.bytes).metadata()).toMatchObject({ format: "webp", width: 512, height: 512 });
    expect((await listTracks(t.db, storage)).map((x) => x.id)).toContain(track.id);
  });

  it("the form's title and artist override the tags", async () => {
    const track = await uploadTrack(t.db, storage, admin, {
      bytes: demo("depozit-na-14-dnej.mp3"),
      fileName: "x.mp3",
      title: " Свой заголовок ",
      artist: "Свой автор",
    });
    expect(track).toMatchObject({ title: "Свой заголовок", artist: "Свой автор" });
  });

  it("refuses a file that is not audio and a member who is not an admin, storing nothing", async () => {
    const before = storedFiles();
    const count = (await listTracks(t.db, storage)).length;
    await expect(uploadTrack(t.db, storage, admin, { bytes: Buffer.from("<html>не музыка</html>".repeat(50)), fileName: "song.mp3" })).rejects.toMatchObject({
      code: "audio_unsupported_type",
      status: 400,
    });
    await expect(uploadTrack(t.db, storage, member, { bytes: demo("garant-spit-spokojno.mp3"), fileName: "x.mp3" })).rejects.toMatchObject({
      code: "not_admin",
      status: 403,
    });
    expect(storedFiles()).toBe(before);
    expect((await listTracks(t.db, storage)).length).toBe(count);
  });

  it("edits the title, artist and cover; a picture that is not an image is refused with the old cover kept", async () => {
    const track = await uploadTrack(t.db, storage, admin, { bytes: demo("rassvet-nad-barakholkoj.mp3"), fileName: "x.mp3" });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const edited = await updateTrack(t.db, storage, admin, track.id, { title: "Новое имя", artist: "", cover: png });
    expect(edited).toMatchObject({ title: "Новое имя", artist: "" });
    expect(edited.coverUrl).not.toBe(track.coverUrl);
    expect(await storage.get(track.coverUrl!.replace("/uploads/", ""))).toBeNull();
    await expect(updateTrack(t.db, storage, admin, track.id, { title: "Ещё", artist: "", cover: Buffer.from("not a picture") })).rejects.toMatchObject({
      code: "cover_unsupported_type",
    });
    await expect(updateTrack(t.db, storage, admin, track.id, { title: "  ", artist: "" })).rejects.toMatchObject({
      code: "invalid_input",
      fieldErrors: { title: [expect.any(String)] },
    });
    const [kept] = (await listTracks(t.db, storage)).filter((x) => x.id === track.id);
    expect(kept).toMatchObject({ title: "Новое имя", coverUrl: edited.coverUrl });
    const removed = await updateTrack(t.db, storage, admin, track.id, { title: "Новое имя", artist: "", removeCover: true });
    expect(removed.coverUrl).toBeNull();
    await expect(updateTrack(t.db, storage, member, track.id, { title: "x", artist: "" })).rejects.toMatchObject({ code: "not_admin" });
    await expect(updateTrack(t.db, storage, admin, 99_999, { title: "x", artist: "" })).rejects.toMatchObject({ code: "track_not_found", status: 404 });
  });

  it("moves tracks up and down the playlist, and stays put at the ends", async () => {
    const ids = async () => (await listAdminTracks(t.db, storage, admin)).map((x) => x.id);
    const [first, second, third] = await ids();
    await moveTrack(t.db, admin, second!, "up");
    expect((await ids()).slice(0, 3)).toEqual([second, first, third]);
    await moveTrack(t.db, admin, second!, "up");
    expect((await ids()).slice(0, 3)).toEqual([second, first, third]);
    await moveTrack(t.db, admin, second!, "down");
    expect((await ids()).slice(0, 3)).toEqual([first, second, third]);
    await expect(moveTrack(t.db, member, first!, "down")).rejects.toMatchObject({ code: "not_admin" });
  });

  it("counts one play per listener and track per half hour", async () => {
    const [track] = await listTracks(t.db, storage);
    const now = new Date("2025-06-01T12:05:00Z");
    expect(await recordPlay(t.db, track!.id, "user:1", now)).toEqual({ counted: true, playCount: 1 });
    expect(await recordPlay(t.db, track!.id, "user:1", new Date("2025-06-01T12:25:00Z"))).toEqual({ counted: false, playCount: 1 });
    expect(await recordPlay(t.db, track!.id, "ip:abc", now)).toEqual({ counted: true, playCount: 2 });
    expect(await recordPlay(t.db, track!.id, "user:1", new Date("2025-06-01T12:31:00Z"))).toEqual({ counted: true, playCount: 3 });
    await expect(recordPlay(t.db, 99_999, "user:1", now)).rejects.toMatchObject({ code: "track_not_found" });
  });

  it("deleting a track removes its files", async () => {
    const track = await uploadTrack(t.db, storage, admin, { bytes: demo("garant-spit-spokojno.mp3"), fileName: "x.mp3" });
    const before = storedFiles();
    await deleteTrack(t.db, storage, admin, track.id);
    expect(storedFiles()).toBe(before - 2);
    await expect(deleteTrack(t.db, storage, admin, track.id)).rejects.toMatchObject({ code: "track_not_found" });
  });
});
