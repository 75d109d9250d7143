/**
 * The music playlist's public shapes and limits (issue 11; docs/product/pages.md "/music"),
 * shared by the server, the player and the admin forms. Pure: no server imports.
 */

/** The largest audio upload, bytes: 30 MB. */
export const MAX_AUDIO_BYTES = 30 * 1024 * 1024;
/** The largest cover upload, bytes (docs/product/limits.md: images up to 10 MB). */
export const MAX_COVER_BYTES = 10 * 1024 * 1024;
export const MAX_TITLE_LENGTH = 200;
export const MAX_ARTIST_LENGTH = 200;
/** File types the upload form offers (the server checks the content, not the name). */
export const AUDIO_ACCEPT = "audio/mpeg,audio/mp3,audio/ogg,audio/mp4,audio/x-m4a,audio/flac,audio/x-flac,.mp3,.ogg,.oga,.m4a,.flac";

/** A track as the playlist and the player show it. */
export interface TrackDto {
  id: number;
  title: string;
  artist: string;
  /** Milliseconds. */
  durationMs: number;
  /** Where the audio is served with range requests: /api/music/{id}/audio. */
  audioUrl: string;
  /** MIME type of the audio (audio/mpeg, audio/ogg, audio/mp4, audio/flac). */
  audioType: string;
  /** The cover's stored picture (/uploads/…), to pass through the image endpoint, or null. */
  coverUrl: string | null;
  playCount: number;
}

/** A track as the admin list shows it: the public shape plus size and order. */
export interface AdminTrackDto extends TrackDto {
  audioSize: number;
  position: number;
  createdAt: string;
}

/** «3:07» for 187 000 ms; hours when needed («1:02:03»). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** «12,5 МБ» for a size in bytes. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(".", ",")} МБ`;
}
