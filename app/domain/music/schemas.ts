/**
 * The forms of /admin/music (issue 11), shared by Conform in the browser and the actions.
 * Limits: audio up to 30 MB, cover up to 10 MB, title 1–200 characters, artist up to 200.
 * The audio's content is checked on the server (readAudioFile); here only presence and size.
 */
import { z } from "zod";
import { cleanTextRefinement } from "~/lib/text";
import { MAX_ARTIST_LENGTH, MAX_AUDIO_BYTES, MAX_COVER_BYTES, MAX_TITLE_LENGTH } from "./types";

const trackId = z.coerce.number({ error: "Трек не найден" }).int().positive("Трек не найден").max(2_147_483_647, "Трек не найден");
const artist = z
  .string()
  .trim()
  .max(MAX_ARTIST_LENGTH, `Исполнитель — не длиннее ${MAX_ARTIST_LENGTH} символов`)
  .refine(...cleanTextRefinement());

export const UploadTrackFormSchema = z.object({
  intent: z.literal("upload"),
  audio: z
    .instanceof(File, { message: "Выберите аудиофайл" })
    .refine((file) => file.size > 0, "Выберите аудиофайл")
    .refine((file) => file.size <= MAX_AUDIO_BYTES, "Файл слишком большой: не больше 30 МБ"),
  /** Empty keeps the file's own title tag. */
  title: z
    .string()
    .trim()
    .max(MAX_TITLE_LENGTH, `Название — не длиннее ${MAX_TITLE_LENGTH} символов`)
    .refine(...cleanTextRefinement())
    .optional(),
  artist: artist.optional(),
});

export const MoveTrackFormSchema = z.object({ intent: z.literal("move"), trackId, direction: z.enum(["up", "down"]) });
export const DeleteTrackFormSchema = z.object({ intent: z.literal("delete"), trackId });

/** Every form of /admin/music, told apart by `intent`. */
export const AdminMusicActionSchema = z.discriminatedUnion("intent", [UploadTrackFormSchema, MoveTrackFormSchema, DeleteTrackFormSchema]);

export const EditTrackFormSchema = z.object({
  intent: z.literal("edit"),
  title: z
    .string({ error: "Укажите название" })
    .trim()
    .min(1, "Укажите название")
    .max(MAX_TITLE_LENGTH, `Название — не длиннее ${MAX_TITLE_LENGTH} символов`)
    .refine(...cleanTextRefinement()),
  artist: artist.optional(),
  cover: z
    .instanceof(File)
    .refine((file) => file.size <= MAX_COVER_BYTES, "Обложка слишком большая: не больше 10 МБ")
    .optional(),
  removeCover: z.boolean().optional(),
});
