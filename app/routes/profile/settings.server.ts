/**
 * The action of /profile/settings (issue 6 item 4): parses the posted form by its `intent`
 * (SettingsActionSchema), checks CSRF, runs one domain call, and answers like the money forms
 * (app/routes/_shared/money-form.server.ts): success → redirect back with a Russian toast; refused input
 * or an AppError → Conform's reply with the status, messages beside their fields, passwords
 * never echoed back.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { FormActionData } from "~/components/forms/action-data";
import { hexToTriple, SettingsActionSchema, type SettingsAction } from "~/components/settings/schemas";
import { changePassword, linkTelegram, removeAvatar, saveTheme, setAvatar, unlinkTelegram, updateProfile } from "~/domain/users/settings.server";
import { rotateApiToken } from "~/domain/users/sessions.server";
import type { UserRow } from "~/domain/users/users.server";
import { requireUser } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData, Unauthorized, ValidationFailed } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { getCurrentSession, getSessionId } from "~/lib/session.server";
import { getStorage } from "~/lib/storage/storage.server";
import { checkInitData } from "~/lib/telegram/init-data.server";
import { redirectWithToast, type FlashToast } from "~/lib/toast.server";

const SECRET_FIELDS = ["currentPassword", "newPassword", "confirmPassword", "initData"];

/** Runs the settings form posted in `request` for the signed-in member (see the module comment). */
export async function runSettingsAction(ctx: AppContext, request: Request) {
  const actor = await requireUser(ctx, request);
  const form = await pageData(() => readForm(request));
  const intent = typeof form.get("intent") === "string" ? String(form.get("intent")) : "";
  const submission = parseWithZod(form, { schema: SettingsActionSchema });
  if (submission.status !== "success") {
    return data<FormActionData>({ intent, ok: false, code: "validation_failed", result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });
  }
  try {
    await validateCsrf(request);
    const toast = await perform(ctx, request, actor, submission.value);
    const here = new URL(request.url);
    return redirectWithToast(here.pathname, toast);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const posted = new Set(Object.keys(submission.payload));
    const fieldErrors = Object.fromEntries(Object.entries(error.fieldErrors ?? {}).filter(([name]) => posted.has(name)));
    const formErrors = Object.keys(fieldErrors).length > 0 ? [] : [error.message];
    return data<FormActionData>(
      { intent, ok: false, code: error.code, result: submission.reply({ formErrors, fieldErrors, hideFields: SECRET_FIELDS }) },
      { status: error.status },
    );
  }
}

async function perform(ctx: AppContext, request: Request, actor: UserRow, input: SettingsAction): Promise<FlashToast> {
  const storage = getStorage(ctx.config);
  switch (input.intent) {
    case "profile":
      await updateProfile(ctx.db, actor.id, input);
      return { title: "Профиль сохранён" };
    case "avatar":
      await setAvatar(ctx.db, storage, actor, new Uint8Array(await input.avatar.arrayBuffer()));
      return { title: "Аватар обновлён" };
    case "avatar-remove":
      await removeAvatar(ctx.db, storage, actor);
      return { title: "Аватар удалён" };
    case "theme":
      await saveTheme(ctx.db, actor.id, {
        primary: hexToTriple(input.primary),
        secondary: hexToTriple(input.secondary),
        background: hexToTriple(input.background),
      });
      return { title: "Тема сохранена" };
    case "theme-reset":
      await saveTheme(ctx.db, actor.id, null);
      return { title: "Тема сброшена", description: "Снова используются цвета сайта" };
    case "password": {
      const { signedOut } = await changePassword(ctx.db, actor, await getSessionId(request), input);
      return {
        title: actor.passwordHash ? "Пароль изменён" : "Пароль задан",
        description: signedOut > 0 ? "Вы вышли на других устройствах" : undefined,
      };
    }
    case "telegram-link": {
      const check = checkInitData(
        input.initData,
        ctx.config.telegramBotToken,
        ctx.config.telegramInitDataMaxAgeS,
        new Date(),
        ctx.config.telegramInitDataMaxSkewS,
      );
      if (!check.ok) {
        throw new ValidationFailed("Telegram не подтвердил вход: откройте сайт из бота заново и попробуйте ещё раз", undefined, "telegram_invalid");
      }
      const linked = await linkTelegram(ctx.db, actor.id, check.identity);
      return { title: "Telegram привязан", description: linked.telegramUsername ? `@${linked.telegramUsername}` : undefined };
    }
    case "telegram-unlink":
      await unlinkTelegram(ctx.db, actor);
      return { title: "Telegram отвязан" };
    case "api-token": {
      // This device's token only: the member's other sessions keep theirs (docs/decisions/0017).
      const session = await getCurrentSession(ctx.db, request, ctx);
      if (!session) throw new Unauthorized();
      await rotateApiToken(ctx.db, session.sessionId);
      return { title: "Токен обновлён", description: "Живые обновления на этом устройстве переподключатся с новым токеном" };
    }
  }
}
