/**
 * The forms of /profile/settings (issue 6 item 4), shared by Conform in the browser and the
 * page's action. Each form posts its own `intent`. Limits: display name up to 64 characters
 * (the length Telegram sign-in keeps, app/lib/telegram/members.server.ts), bio up to 1000,
 * avatar up to 10 MB (docs/product/limits.md#uploads-and-images), passwords as at registration.
 * Messages are Russian.
 */
import { z } from "zod";
import { PasswordSchema } from "~/domain/users/schemas";

export const MAX_DISPLAY_NAME_LENGTH = 64;
export const MAX_BIO_LENGTH = 1000;
/** The largest avatar upload, in bytes (docs/product/limits.md#uploads-and-images: images up to 10 MB). */
export const MAX_AVATAR_UPLOAD_BYTES = 10 * 1024 * 1024;

const noNul = (value: string) => !value.includes("\u0000");

export const ProfileFormSchema = z.object({
  intent: z.literal("profile"),
  displayName: z
    .string()
    .trim()
    .max(MAX_DISPLAY_NAME_LENGTH, `Имя — не длиннее ${MAX_DISPLAY_NAME_LENGTH} символов`)
    .refine(noNul, "Недопустимый символ в имени")
    .optional(),
  bio: z.string().trim().max(MAX_BIO_LENGTH, `О себе — не длиннее ${MAX_BIO_LENGTH} символов`).refine(noNul, "Недопустимый символ в тексте").optional(),
});

export const AvatarFormSchema = z.object({
  intent: z.literal("avatar"),
  avatar: z
    .instanceof(File, { message: "Выберите изображение" })
    .refine((file) => file.size > 0, "Выберите изображение")
    .refine((file) => file.size <= MAX_AVATAR_UPLOAD_BYTES, "Файл слишком большой: не больше 10 МБ"),
});

export const RemoveAvatarFormSchema = z.object({ intent: z.literal("avatar-remove") });

/** `#rrggbb` as typed by `<input type="color">`. */
const HexColorSchema = z
  .string({ error: "Выберите цвет" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "Цвет в формате #rrggbb");

export const ThemeFormSchema = z.object({
  intent: z.literal("theme"),
  primary: HexColorSchema,
  secondary: HexColorSchema,
  background: HexColorSchema,
});

export const ResetThemeFormSchema = z.object({ intent: z.literal("theme-reset") });

export const PasswordFormSchema = z
  .object({
    intent: z.literal("password"),
    /** Absent for a member without a password yet (Telegram sign-in only). */
    currentPassword: z.string().max(128, "Пароль — не длиннее 128 символов").optional(),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ error: "Повторите новый пароль" }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "Пароли не совпадают",
    path: ["confirmPassword"],
  });

export const TelegramLinkFormSchema = z.object({
  intent: z.literal("telegram-link"),
  initData: z.string({ error: "Откройте сайт из Telegram-бота" }).min(1, "Откройте сайт из Telegram-бота").max(8192),
});

export const TelegramUnlinkFormSchema = z.object({ intent: z.literal("telegram-unlink") });

export const ApiTokenFormSchema = z.object({ intent: z.literal("api-token") });

/** Every form of the page, told apart by `intent`. */
export const SettingsActionSchema = z.discriminatedUnion("intent", [
  ProfileFormSchema,
  AvatarFormSchema,
  RemoveAvatarFormSchema,
  ThemeFormSchema,
  ResetThemeFormSchema,
  PasswordFormSchema,
  TelegramLinkFormSchema,
  TelegramUnlinkFormSchema,
  ApiTokenFormSchema,
]);
export type SettingsAction = z.output<typeof SettingsActionSchema>;

/** `#rrggbb` → RGB triple. The input is already checked by HexColorSchema. */
export function hexToTriple(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** RGB triple → `#rrggbb` for `<input type="color">`. */
export function tripleToHex(rgb: readonly [number, number, number]): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}
