/**
 * The account security part of /profile/settings (issue 6 item 4): password change (signs
 * out the other sessions), the Telegram link, the api token, and a link to the email change page.
 */
import { useEffect, useState } from "react";
import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Button } from "~/components/ui/button";
import { messagesOf } from "~/components/forms/action-data";
import { FormErrors } from "~/components/forms/form-errors";
import { isTelegramLaunch, telegramWebApp, waitForInitData } from "~/components/telegram/webapp";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PasswordFormSchema } from "./schemas";
import { SettingsForm, SettingsSection } from "./settings-form";

export function EmailSection({ email, verified }: { email: string; verified: boolean }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/auth/email/validate";
  return (
    <SettingsSection id="email" title="Email">
      <p className="text-sm">
        <strong data-testid="settings-email">{email}</strong> — {verified ? "подтверждён" : "не подтверждён"}.{" "}
        <Link to="/auth/email/change" className="font-medium text-primary hover:underline">
          Сменить email
        </Link>
      </p>
      {verified ? null : (
        // The verification link's page sends signed-in members here (docs/product/routes.md#access-and-guards), so a new link is asked for here.
        <Form method="post" action="/auth/email/validate" className="mt-3 flex flex-wrap items-center gap-3">
          <AuthenticityTokenInput />
          <p className="text-sm text-muted-foreground">Письмо не пришло? Отправим новую ссылку на {email}.</p>
          <Button type="submit" variant="outline" size="sm" disabled={sending}>
            {sending ? "Отправляем…" : "Отправить ссылку ещё раз"}
          </Button>
        </Form>
      )}
    </SettingsSection>
  );
}

export function PasswordForm({ hasPassword, lastResult }: { hasPassword: boolean; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "password",
    lastResult,
    constraint: getZodConstraint(PasswordFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordFormSchema }),
  });
  return (
    <SettingsSection
      id="password"
      title={hasPassword ? "Смена пароля" : "Пароль"}
      description={
        hasPassword
          ? "После смены пароля вы выйдете на всех других устройствах; здесь вход сохранится."
          : "Вы входите через Telegram. Задайте пароль, чтобы входить и без него."
      }
    >
      <SettingsForm form={form} intent="password" submitLabel={hasPassword ? "Сменить пароль" : "Задать пароль"}>
        {hasPassword ? (
          <Field label="Текущий пароль" id={fields.currentPassword.id} errors={fields.currentPassword.errors}>
            <Input {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" required />
          </Field>
        ) : null}
        <Field label="Новый пароль" id={fields.newPassword.id} errors={fields.newPassword.errors} description="Не короче 8 символов">
          <Input {...getInputProps(fields.newPassword, { type: "password" })} autoComplete="new-password" />
        </Field>
        <Field label="Новый пароль ещё раз" id={fields.confirmPassword.id} errors={fields.confirmPassword.errors}>
          <Input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" />
        </Field>
      </SettingsForm>
    </SettingsSection>
  );
}

/** Telegram's initData when the page runs inside the Mini App (after its script provides it), else null. */
function useTelegramInitData(): string | null {
  const [initData, setInitData] = useState<string | null>(null);
  useEffect(() => {
    if (!isTelegramLaunch()) return;
    let cancelled = false;
    void waitForInitData(() => telegramWebApp()?.initData).then((value) => {
      if (!cancelled) setInitData(value);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return initData;
}

export function TelegramSection({
  telegramUsername,
  linked,
  canUnlink,
  linkResult,
  unlinkResult,
}: {
  telegramUsername: string | null;
  linked: boolean;
  canUnlink: boolean;
  linkResult?: SubmissionResult<string[]>;
  unlinkResult?: SubmissionResult<string[]>;
}) {
  const initData = useTelegramInitData();
  return (
    <SettingsSection id="telegram" title="Telegram" description="Привязанный Telegram позволяет входить на сайт из нашего бота без пароля.">
      {linked ? (
        <>
          <p className="text-sm" data-testid="telegram-linked">
            Привязан аккаунт <strong>{telegramUsername ? `@${telegramUsername}` : "без имени пользователя"}</strong>.
          </p>
          {canUnlink ? null : (
            <p className="text-sm text-muted-foreground">
              Сейчас это ваш единственный способ входа: отвязать Telegram можно после того, как вы зададите пароль ниже.
            </p>
          )}
          <SettingsForm intent="telegram-unlink" submitLabel="Отвязать" submitVariant="outline">
            <FormErrors errors={messagesOf(unlinkResult)} />
          </SettingsForm>
        </>
      ) : (
        <>
          <FormErrors errors={messagesOf(linkResult)} />
          {initData ? (
            <SettingsForm intent="telegram-link" submitLabel="Привязать Telegram">
              <input type="hidden" name="initData" value={initData} />
            </SettingsForm>
          ) : (
            <p className="text-sm" data-testid="telegram-how-to-link">
              Telegram не привязан. Чтобы привязать его, откройте сайт из нашего Telegram-бота, войдите в этот аккаунт и нажмите здесь «Привязать Telegram».
            </p>
          )}
        </>
      )}
    </SettingsSection>
  );
}

export function ApiTokenForm({ tokenHint, lastResult }: { tokenHint: string; lastResult?: SubmissionResult<string[]> }) {
  return (
    <SettingsSection
      id="api-token"
      title="Токен живых обновлений"
      description="По этому токену сайт получает сообщения и уведомления в реальном времени. Смените его, если он мог попасть к посторонним: открытые подключения закроются и переподключатся с новым."
    >
      <p className="text-sm">
        Текущий токен: <code data-testid="api-token-hint">{tokenHint}</code>
      </p>
      <SettingsForm intent="api-token" submitLabel="Сменить токен" submitVariant="outline">
        <FormErrors errors={messagesOf(lastResult)} />
      </SettingsForm>
    </SettingsSection>
  );
}
