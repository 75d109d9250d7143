/**
 * Seeds the demo playlist: the generated MP3s of music-tracks.ts go through uploadTrack, as an
 * admin's upload would, so their titles, artists, durations and covers are read from the tags.
 * The files are read from app/db/seed/music under the working directory (the repository root,
 * where the server and `npm run db:reseed` start).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "~/db/client.server";
import { uploadTrack } from "~/domain/music/tracks.server";
import type { AppConfig } from "~/lib/config.server";
import { getStorage } from "~/lib/storage/storage.server";
import { DEMO_TRACKS } from "./music-tracks";

/** Uploads the demo tracks as admin `adminId`; returns how many. */
export async function seedMusic(db: Db, config: Pick<AppConfig, "dataDir">, adminId: number): Promise<number> {
  const storage = getStorage(config);
  const folder = path.resolve(process.cwd(), "app/db/seed/music");
  for (const track of DEMO_TRACKS) {
    const bytes = await readFile(path.join(folder, track.file));
    await uploadTrack(db, storage, { id: adminId, role: "admin" }, { bytes, fileName: track.file });
  }
  return DEMO_TRACKS.length;
}
