/**
 * The music playlist (issue 11; docs/product/pages.md "/music"): admins upload, edit, order
 * and delete tracks; everyone lists them and plays them; plays are counted.
 *
 * Files live in the upload store (app/lib/storage/): the audio under music/{random}.{ext}, the
 * cover as a 512×512 WebP under music/covers/{random}.webp, shown through the image endpoint.
 * Bad input is refused before anything is stored; a failed insert removes the stored files.
 * Every admin change is written to the audit log in the change's own transaction
 * (docs/product/moderation.md#audit-log).
 */
import { randomBytes } from "node:crypto";
import { asc, desc, eq, lt, max, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { musicPlays, musicTracks } from "~/db/schema";
import { ValidationFailed, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { probeImage } from "~/lib/images/decode.server";
import type { FileStorage } from "~/lib/storage/storage.server";
import { writeAudit } from "../moderation/audit.server";
import { assertAdmin } from "../users/roles-admin";
import type { UserRole } from "../users/roles";
import { readAudioFile } from "./audio-file.server";
import { MAX_ARTIST_LENGTH, MAX_COVER_BYTES, MAX_TITLE_LENGTH, type AdminTrackDto, type TrackDto } from "./types";

type TrackRow = typeof musicTracks.$inferSelect;
type Actor = { id: number; role: UserRole };

/** Side of the stored cover, pixels (the player shows 48 px, the playlist 64 px, Media Session up to 512). */
export const COVER_SIZE = 512;
/** Plays of one listener count once per track in this window (ms). */
export const PLAY_WINDOW_MS = 30 * 60 * 1000;

/** The one mapper of a track to its public shape. */
export function toTrackDto(row: TrackRow, storage: FileStorage): TrackDto {
  return {
    id: row.id,
    title: row.title,
    artist: row.artist,
    durationMs: row.durationMs,
    audioUrl: `/api/music/${row.id}/audio`,
    audioType: row.audioType,
    coverUrl: row.coverKey ? storage.publicUrl(row.coverKey) : null,
    playCount: row.playCount,
  };
}

function toAdminTrackDto(row: TrackRow, storage: FileStorage): AdminTrackDto {
  return { ...toTrackDto(row, storage), audioSize: row.audioSize, position: row.position, createdAt: row.createdAt.toISOString() };
}

const ORDER = [asc(musicTracks.position), asc(musicTracks.id)] as const;

/** What an audit entry keeps of a track, so it still reads after the track is deleted. */
function trackDetails(row: TrackRow): { title: string; artist: string } {
  return { title: row.title, artist: row.artist };
}

/** The playlist in its order (public). */
export async function listTracks(db: Db, storage: FileStorage): Promise<TrackDto[]> {
  const rows = await db
    .select()
    .from(musicTracks)
    .orderBy(...ORDER);
  return rows.map((row) => toTrackDto(row, storage));
}

/** The playlist with sizes and positions, for /admin/music. Throws Forbidden (`not_admin`) for others. */
export async function listAdminTracks(db: Db, storage: FileStorage, actor: Actor): Promise<AdminTrackDto[]> {
  assertAdmin(actor);
  const rows = await db
    .select()
    .from(musicTracks)
    .orderBy(...ORDER);
  return rows.map((row) => toAdminTrackDto(row, storage));
}

/** One track for its edit page. Throws Forbidden (`not_admin`), NotFound (`track_not_found`). */
export async function getAdminTrack(db: Db, storage: FileStorage, actor: Actor, id: number): Promise<AdminTrackDto> {
  assertAdmin(actor);
  return toAdminTrackDto(await findTrack(db, id), storage);
}

/** Where a track's audio is stored, for the audio endpoint; null for an unknown id. */
export async function getTrackAudio(db: Db, id: number): Promise<Pick<TrackRow, "audioKey" | "audioType" | "audioSize" | "updatedAt"> | null> {
  if (!isValidId(id)) return null;
  const [row] = await db
    .select({ audioKey: musicTracks.audioKey, audioType: musicTracks.audioType, audioSize: musicTracks.audioSize, updatedAt: musicTracks.updatedAt })
    .from(musicTracks)
    .where(eq(musicTracks.id, id));
  return row ?? null;
}

export interface UploadTrackInput {
  /** The uploaded file's bytes and name. */
  bytes: Uint8Array;
  fileName: string;
  /** Overrides of the tags; empty or absent keeps what the file says. */
  title?: string;
  artist?: string;
}

/**
 * Admin `actor` adds a track at the end of the playlist: the audio is read (readAudioFile), the
 * embedded cover kept when it is a picture (a broken one is skipped), both stored, the row
 * inserted. Returns the track. Throws Forbidden (`not_admin`) and the ValidationFailed of
 * readAudioFile (`audio_empty`, `audio_too_large`, `audio_unsupported_type`); nothing is stored then.
 */
export async function uploadTrack(db: Db, storage: FileStorage, actor: Actor, input: UploadTrackInput): Promise<TrackDto> {
  assertAdmin(actor);
  const info = await readAudioFile(input.bytes, input.fileName);
  const cover = info.cover ? await coverPicture(info.cover.bytes) : null;
  const audioKey = `music/${randomName()}.${info.extension}`;
  const coverKey = cover ? `music/covers/${randomName()}.webp` : null;
  await storage.put(audioKey, input.bytes, info.audioType);
  try {
    if (cover && coverKey) await storage.put(coverKey, cover, "image/webp");
    const row = await db.transaction(async (tx) => {
      const [last] = await tx.select({ value: max(musicTracks.position) }).from(musicTracks);
      const [inserted] = await tx
        .insert(musicTracks)
        .values({
          title: input.title?.trim() || info.title,
          artist: input.artist === undefined || input.artist.trim() === "" ? info.artist : input.artist.trim(),
          durationMs: info.durationMs,
          audioKey,
          audioType: info.audioType,
          audioSize: input.bytes.byteLength,
          coverKey,
          position: (last?.value ?? 0) + 1,
          uploadedBy: actor.id,
        })
        .returning();
      await writeAudit(tx, { actorId: actor.id, action: "track.upload", targetType: "track", targetId: inserted!.id, details: trackDetails(inserted!) });
      return inserted!;
    });
    return toTrackDto(row, storage);
  } catch (error) {
    await storage.delete(audioKey);
    if (coverKey) await storage.delete(coverKey);
    throw error;
  }
}

export interface UpdateTrackInput {
  title: string;
  artist: string;
  /** A new cover picture's bytes (jpeg, png, webp, gif, avif up to 10 MB). */
  cover?: Uint8Array;
  /** Removes the cover (ignored when a new one is given). */
  removeCover?: boolean;
}

/**
 * Admin `actor` edits track `id`: title (1–200 characters), artist (up to 200) and the cover.
 * Returns the track. Throws Forbidden (`not_admin`), NotFound (`track_not_found`),
 * ValidationFailed (`invalid_input` with field errors; `cover_unsupported_type`, `cover_too_large`).
 */
export async function updateTrack(db: Db, storage: FileStorage, actor: Actor, id: number, input: UpdateTrackInput): Promise<TrackDto> {
  assertAdmin(actor);
  const title = input.title.trim();
  const artist = input.artist.trim();
  if (title.length === 0 || title.length > MAX_TITLE_LENGTH) {
    const message = `Название — от 1 до ${MAX_TITLE_LENGTH} символов`;
    throw new ValidationFailed(message, { title: [message] }, "invalid_input");
  }
  if (artist.length > MAX_ARTIST_LENGTH) {
    const message = `Исполнитель — не длиннее ${MAX_ARTIST_LENGTH} символов`;
    throw new ValidationFailed(message, { artist: [message] }, "invalid_input");
  }
  const current = await findTrack(db, id);
  let coverKey = current.coverKey;
  if (input.cover && input.cover.byteLength > 0) {
    if (input.cover.byteLength > MAX_COVER_BYTES) throw coverRefusal("Обложка слишком большая: не больше 10 МБ", "cover_too_large");
    const cover = await coverPicture(input.cover);
    if (!cover) throw coverRefusal("Обложка должна быть изображением JPEG, PNG, WebP, GIF или AVIF", "cover_unsupported_type");
    coverKey = `music/covers/${randomName()}.webp`;
    await storage.put(coverKey, cover, "image/webp");
  } else if (input.removeCover) {
    coverKey = null;
  }
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx.update(musicTracks).set({ title, artist, coverKey, updatedAt: new Date() }).where(eq(musicTracks.id, id)).returning();
    if (!updated) return null;
    const changes = {
      ...(current.title !== title ? { titleFrom: current.title } : {}),
      ...(current.artist !== artist ? { artistFrom: current.artist } : {}),
      ...(current.coverKey !== coverKey ? { cover: coverKey ? "replaced" : "removed" } : {}),
    };
    await writeAudit(tx, {
      actorId: actor.id,
      action: "track.edit",
      targetType: "track",
      targetId: updated.id,
      details: { ...trackDetails(updated), ...changes },
    });
    return updated;
  });
  if (!row) {
    if (coverKey && coverKey !== current.coverKey) await storage.delete(coverKey);
    throw trackNotFound();
  }
  // Cover URLs are cached for a year (decision 9): a replaced cover is a new file, the old one goes.
  if (current.coverKey && current.coverKey !== coverKey) await storage.delete(current.coverKey);
  return toTrackDto(row, storage);
}

/** Admin `actor` deletes track `id` and its files. Throws Forbidden (`not_admin`), NotFound (`track_not_found`). */
export async function deleteTrack(db: Db, storage: FileStorage, actor: Actor, id: number): Promise<void> {
  assertAdmin(actor);
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(musicTracks)
      .where(eq(musicTracks.id, validId(id)))
      .returning();
    if (!deleted) throw trackNotFound();
    await writeAudit(tx, { actorId: actor.id, action: "track.delete", targetType: "track", targetId: deleted.id, details: trackDetails(deleted) });
    return deleted;
  });
  await storage.delete(row.audioKey);
  if (row.coverKey) await storage.delete(row.coverKey);
}

/**
 * Admin `actor` moves track `id` one place up or down the playlist (swapping positions with its
 * neighbour; no change at either end). Throws Forbidden (`not_admin`), NotFound (`track_not_found`).
 */
export async function moveTrack(db: Db, actor: Actor, id: number, direction: "up" | "down"): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (tx) => {
    const [track] = await tx
      .select()
      .from(musicTracks)
      .where(eq(musicTracks.id, validId(id)))
      .for("update");
    if (!track) throw trackNotFound();
    const before = sql`(${musicTracks.position}, ${musicTracks.id}) < (${track.position}, ${track.id})`;
    const after = sql`(${musicTracks.position}, ${musicTracks.id}) > (${track.position}, ${track.id})`;
    const [neighbour] = await tx
      .select()
      .from(musicTracks)
      .where(direction === "up" ? before : after)
      .orderBy(...(direction === "up" ? [desc(musicTracks.position), desc(musicTracks.id)] : ORDER))
      .limit(1)
      .for("update");
    if (!neighbour) return;
    // Equal positions (tracks added side by side) still need an order: nudge by one.
    const [trackPosition, neighbourPosition] =
      neighbour.position === track.position
        ? direction === "up"
          ? [track.position - 1, track.position]
          : [track.position + 1, track.position]
        : [neighbour.position, track.position];
    await tx.update(musicTracks).set({ position: trackPosition }).where(eq(musicTracks.id, track.id));
    await tx.update(musicTracks).set({ position: neighbourPosition }).where(eq(musicTracks.id, neighbour.id));
    await writeAudit(tx, { actorId: actor.id, action: "track.move", targetType: "track", targetId: track.id, details: { ...trackDetails(track), direction } });
  });
}

/**
 * Counts a play of track `trackId` by `listener` (e.g. `user:12`, or a hash of a visitor's
 * address) at `now`: at most one per listener and track per 30 minutes (PLAY_WINDOW_MS), kept by
 * the unique key of music_plays, and play_count rises in the same statement. Returns whether this
 * play counted and the track's count. Throws NotFound (`track_not_found`).
 */
export async function recordPlay(db: Db, trackId: number, listener: string, now = new Date()): Promise<{ counted: boolean; playCount: number }> {
  const window = new Date(Math.floor(now.getTime() / PLAY_WINDOW_MS) * PLAY_WINDOW_MS);
  const id = validId(trackId);
  return db.transaction(async (tx) => {
    const [track] = await tx.select({ playCount: musicTracks.playCount }).from(musicTracks).where(eq(musicTracks.id, id));
    if (!track) throw trackNotFound();
    const inserted = await tx.insert(musicPlays).values({ trackId: id, listener, window }).onConflictDoNothing().returning({ trackId: musicPlays.trackId });
    if (inserted.length === 0) return { counted: false, playCount: track.playCount };
    const [bumped] = await tx
      .update(musicTracks)
      .set({ playCount: sql`${musicTracks.playCount} + 1` })
      .where(eq(musicTracks.id, id))
      .returning({ playCount: musicTracks.playCount });
    return { counted: true, playCount: bumped!.playCount };
  });
}

/** Deletes counted plays older than a day (their windows are long closed). Returns how many. */
export async function purgeOldPlays(db: Db, now = new Date()): Promise<number> {
  const rows = await db
    .delete(musicPlays)
    .where(lt(musicPlays.createdAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)))
    .returning({ trackId: musicPlays.trackId });
  return rows.length;
}

async function findTrack(db: Db, id: number): Promise<TrackRow> {
  const [row] = await db
    .select()
    .from(musicTracks)
    .where(eq(musicTracks.id, validId(id)));
  if (!row) throw trackNotFound();
  return row;
}

/** A cover picture normalised to 512×512 WebP, or null when `bytes` are not an accepted picture. */
async function coverPicture(bytes: Uint8Array): Promise<Buffer | null> {
  const image = await probeImage(bytes);
  if (!image) return null;
  try {
    return await image.pipeline.resize(COVER_SIZE, COVER_SIZE, { fit: "cover", position: "centre" }).webp({ quality: 82 }).toBuffer();
  } catch {
    return null;
  }
}

function coverRefusal(message: string, code: string): ValidationFailed {
  return new ValidationFailed(message, { cover: [message] }, code);
}

function trackNotFound(): NotFound {
  return new NotFound("Трек не найден", "track_not_found");
}

function validId(id: number): number {
  if (!isValidId(id)) throw trackNotFound();
  return id;
}

function randomName(): string {
  return randomBytes(12).toString("hex");
}
