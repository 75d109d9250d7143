/**
 * /auth/email/change (issue 6 "Email").
 * - Signed in, no token: the member types the new address and the current password; a link
 *   (valid 24 h) is mailed to the NEW address. The address does not change yet. At most 5
 *   mails an hour per address and 20 per IP.
 * - `?token=…` (the mailed link; sign-in not needed, the link may be opened on another
 *   device): shows the new address and a button that confirms it (a POST, so mail scanners
 *   that open links change nothing). JSON clients use POST /api/profile/email/change/confirm.
 * Every form works with JavaScript off; CSRF like every page form.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, useActionData, useNavigation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/email-change";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { confirmEmailChange, requestEmailChange } from "~/domain/accounts/email-flows.server";
import { consumeMailLimit } from "~/domain/accounts/mail-limits.server";
import { ChangeEmailSchema, ConfirmEmailChangeSchema } from "~/domain/accounts/schemas";
import { inspectAccountToken } from "~/domain/accounts/tokens.server";
import { getOptionalUser, requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Смена email");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    try {
      const grant = await inspectAccountToken(context.db, token, "email_change");
      return { mode: "confirm" as const, token, newEmail: grant.newEmail, problem: null };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { mode: "confirm" as const, token: "", newEmail: null, problem: error.message };
    }
  }
  const user = await requireUser(context, request);
  return { mode: "request" as const, email: user.email, verified: user.emailVerified };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await pageData(() => readForm(request));
  if (formData.get("intent") === "confirm") {
    const submission = parseWithZod(formData, { schema: ConfirmEmailChangeSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), sentTo: null }, { status: 400 });
    try {
      await validateCsrf(request);
      const { email } = await confirmEmailChange(context.db, submission.value.token);
      const signedIn = await getOptionalUser(context, request);
      return signedIn
        ? redirectWithToast("/profile", { title: "Email изменён", description: `Новый адрес: ${email}.` })
        : redirectWithToast("/auth/login", { title: "Email изменён", description: `Войдите с новым адресом ${email}.` });
    } catch (error) {
      return replyWithError(submission, error);
    }
  }
  const user = await requireUser(context, request);
  const submission = parseWithZod(formData, { schema: ChangeEmailSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["currentPassword"] }), sentTo: null }, { status: 400 });
  try {
    await validateCsrf(request);
    await consumeMailLimit(context.db, submission.value.email, context.clientIp);
    await requestEmailChange(context.db, user, submission.value.email, submission.value.currentPassword);
    return { result: submission.reply({ resetForm: true }), sentTo: submission.value.email };
  } catch (error) {
    return replyWithError(submission, error, ["currentPassword"]);
  }
}

export default function EmailChangePage({ loaderData }: Route.ComponentProps) {
  return loaderData.mode === "confirm" ? <ConfirmCard {...loaderData} /> : <RequestCard {...loaderData} />;
}

function ConfirmCard({ token, newEmail, problem }: { token: string; newEmail: string | null; problem: string | null }) {
  const actionData = useActionData<typeof action>();
  const submitting = useNavigation().state === "submitting";
  const [form] = useForm({ lastResult: actionData?.result });
  if (problem) {
    return (
      <Card>
        <CardHeader>
          <CardTitle className="font-heading text-2xl">Ссылка не работает</CardTitle>
          <CardDescription role="alert">{problem}</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/auth/email/change" className="font-medium text-primary hover:underline">
            Запросить смену email заново
          </Link>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="font-heading text-2xl">Подтвердите новый email</CardTitle>
        <CardDescription>
          Новый адрес аккаунта: <strong data-testid="new-email">{newEmail}</strong>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={token} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Подтверждаем…" : "Подтвердить новый email"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

function RequestCard({ email, verified }: { email: string; verified: boolean }) {
  const actionData = useActionData<typeof action>();
  const sentTo = actionData && "sentTo" in actionData ? actionData.sentTo : null;
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(ChangeEmailSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeEmailSchema }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="font-heading text-2xl">Смена email</CardTitle>
        <CardDescription>
          Сейчас: <strong data-testid="current-email">{email}</strong> — {verified ? "подтверждён" : "не подтверждён"}.{" "}
          {!verified && (
            <Link to="/profile/settings#email" className="text-primary hover:underline">
              Подтвердить
            </Link>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sentTo && (
          <p role="status" data-testid="change-sent" className="mb-4 rounded-md border border-primary/40 bg-primary/10 p-3 text-sm">
            Мы отправили письмо на {sentTo}. Адрес сменится, когда вы перейдёте по ссылке из письма (она действует 24 часа).
          </p>
        )}
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="request" />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field label="Новый email" id={fields.email.id} errors={fields.email.errors}>
            <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
          </Field>
          <Field label="Текущий пароль" id={fields.currentPassword.id} errors={fields.currentPassword.errors}>
            <Input {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" />
          </Field>
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Отправляем…" : "Отправить ссылку на новый адрес"}
          </Button>
        </Form>
        <p className="mt-6 text-sm">
          <Link to="/profile" className="font-medium text-primary hover:underline">
            Вернуться в профиль
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
