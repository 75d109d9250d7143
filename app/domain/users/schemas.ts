/**
 * Form schemas for accounts, shared by the server (actions) and the browser (Conform's
 * inline validation). Rules from docs/product/accounts.md#members; messages are shown to users in Russian.
 */
import { z } from "zod";
import { isMixedScript, MIXED_SCRIPT_MESSAGE } from "./username-safety";

export const USERNAME_PATTERN = /^[A-Za-z0-9_А-Яа-яЁё]+$/;

export const UsernameSchema = z
  .string({ error: "Введите имя пользователя" })
  .trim()
  .min(3, "Имя пользователя — не короче 3 символов")
  .max(32, "Имя пользователя — не длиннее 32 символов")
  .regex(USERNAME_PATTERN, "Только латинские и русские буквы, цифры и _")
  .refine((value) => !isMixedScript(value), MIXED_SCRIPT_MESSAGE);

export const EmailSchema = z
  .string({ error: "Введите email" })
  .trim()
  .max(254, "Слишком длинный email")
  .email("Введите корректный email")
  .transform((value) => value.toLowerCase());

export const PasswordSchema = z.string({ error: "Введите пароль" }).min(8, "Пароль — не короче 8 символов").max(128, "Пароль — не длиннее 128 символов");

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  redirect: z.string().optional(),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

export const LoginSchema = z.object({
  email: z
    .string({ error: "Введите email или имя пользователя" })
    .trim()
    .min(1, "Введите email или имя пользователя")
    .max(254, "Слишком длинный email или имя пользователя"),
  password: z.string({ error: "Введите пароль" }).min(1, "Введите пароль").max(128, "Пароль — не длиннее 128 символов"),
  redirect: z.string().optional(),
});
export type LoginInput = z.infer<typeof LoginSchema>;
