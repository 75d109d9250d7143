/**
 * Form schemas of the email flows (issue 6 "Email"), shared by actions and the browser's
 * inline validation. Messages are Russian; password rules are registration's (docs/product/accounts.md#members).
 */
import { z } from "zod";
import { EmailSchema, PasswordSchema } from "~/domain/users/schemas";

export const ForgotPasswordSchema = z.object({ email: EmailSchema });

export const ResetPasswordSchema = z
  .object({
    token: z.string({ error: "Ссылка недействительна" }).min(1, "Ссылка недействительна"),
    password: PasswordSchema,
    confirm: z.string({ error: "Повторите пароль" }),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], message: "Пароли не совпадают" });

export const ChangeEmailSchema = z.object({
  email: EmailSchema,
  currentPassword: z.string({ error: "Введите текущий пароль" }).min(1, "Введите текущий пароль").max(128, "Пароль — не длиннее 128 символов"),
});

export const ConfirmEmailChangeSchema = z.object({ token: z.string({ error: "Ссылка недействительна" }).min(1, "Ссылка недействительна") });
