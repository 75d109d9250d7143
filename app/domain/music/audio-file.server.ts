/**
 * Reading an uploaded audio file (issue 11 "/music": "audio read with a tag library made for
 * it"): music-metadata recognises the format from the content and reads the tags. Pure apart
 * from the parsing: the caller stores what this returns.
 */
import { parseBuffer, selectCover } from "music-metadata";
import type { MusicAudioType } from "~/db/schema";
import { ValidationFailed } from "~/lib/errors";
import { MAX_ARTIST_LENGTH, MAX_AUDIO_BYTES, MAX_TITLE_LENGTH } from "./types";

/** What an accepted audio file holds. */
export interface AudioFileInfo {
  audioType: MusicAudioType;
  /** File extension the stored file gets: mp3, ogg, m4a or flac. */
  extension: "mp3" | "ogg" | "m4a" | "flac";
  /** The title tag, or the file name without its extension; trimmed to 200 characters. */
  title: string;
  /** The artist tag, or "". */
  artist: string;
  /** Milliseconds, above 0. */
  durationMs: number;
  /** The embedded front cover (or the first picture), or null. */
  cover: { bytes: Uint8Array; format: string } | null;
}

const NOT_AUDIO = "Это не аудиофайл: загрузите MP3, OGG, M4A или FLAC";
const refuse = (message: string, code: string) => new ValidationFailed(message, { audio: [message] }, code);

/**
 * Validates and reads `bytes` (the upload named `fileName`). The type comes from the content:
 * MPEG layer 3 → mp3, Ogg (Vorbis, Opus, FLAC) → ogg, MP4/M4A with audio and no video → m4a,
 * FLAC → flac. Throws ValidationFailed (400, field `audio`) with code `audio_empty`,
 * `audio_too_large` (over 30 MB), `audio_unsupported_type` (anything else, a file whose
 * duration cannot be read included).
 */
export async function readAudioFile(bytes: Uint8Array, fileName: string): Promise<AudioFileInfo> {
  if (bytes.byteLength === 0) throw refuse("Файл пустой — выберите аудиофайл", "audio_empty");
  if (bytes.byteLength > MAX_AUDIO_BYTES) throw refuse("Файл слишком большой: не больше 30 МБ", "audio_too_large");
  let metadata;
  try {
    metadata = await parseBuffer(bytes, undefined, { duration: true });
  } catch {
    throw refuse(NOT_AUDIO, "audio_unsupported_type");
  }
  const { format, common } = metadata;
  const kind = kindOf(format.container ?? "", format.codec ?? "", format.hasVideo === true);
  const seconds = format.duration;
  if (!kind || format.hasAudio === false || !seconds || !Number.isFinite(seconds) || seconds <= 0) {
    throw refuse(NOT_AUDIO, "audio_unsupported_type");
  }
  const picture = selectCover(common.picture);
  return {
    ...kind,
    title: clip(common.title, MAX_TITLE_LENGTH) || clip(fileName.replace(/\.[^.]*$/, ""), MAX_TITLE_LENGTH) || "Без названия",
    artist: clip(common.artist ?? common.albumartist, MAX_ARTIST_LENGTH),
    durationMs: Math.max(1, Math.round(seconds * 1000)),
    cover: picture && picture.data.byteLength > 0 ? { bytes: picture.data, format: picture.format } : null,
  };
}

function kindOf(container: string, codec: string, hasVideo: boolean): Pick<AudioFileInfo, "audioType" | "extension"> | null {
  if (container === "MPEG" && /layer 3/i.test(codec)) return { audioType: "audio/mpeg", extension: "mp3" };
  if (container === "Ogg") return { audioType: "audio/ogg", extension: "ogg" };
  if (container === "FLAC") return { audioType: "audio/flac", extension: "flac" };
  if (/^(M4A|M4B|mp4|mp41|mp42|isom|iso2|dash)\b/i.test(container) && !hasVideo) return { audioType: "audio/mp4", extension: "m4a" };
  return null;
}

/** The text without control characters, spaces squeezed, at most `max` characters. */
function clip(value: string | undefined, max: number): string {
  return (value ?? "")
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}
