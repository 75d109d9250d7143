/**
 * /auth/password/reset?token=… (issue 6 "Email"): the link of the reset mail opens a form for
 * the new password, typed twice. On success the password is replaced (argon2id, as at
 * registration), every session of the member is deleted — signed out everywhere, this
 * browser too — and the member is sent to /auth/login to sign in with the new password.
 * A used, expired or unknown link shows why and offers a new one. A signed-in member is sent
 * to /profile (docs/product/routes.md#access-and-guards). Works with JavaScript off.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, useActionData, useNavigation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/password-reset";
import { requireAnonymous } from "~/lib/auth.server";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { resetPassword } from "~/domain/accounts/email-flows.server";
import { ResetPasswordSchema } from "~/domain/accounts/schemas";
import { inspectAccountToken } from "~/domain/accounts/tokens.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { destroyUserSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Новый пароль");

export async function loader({ request, context }: Route.LoaderArgs) {
  // Signed-in members are sent to /profile, as from every auth page (docs/product/routes.md#access-and-guards; docs/product/routes.md#access-and-guards).
  await requireAnonymous(context, request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    await inspectAccountToken(context.db, token, "password_reset");
    return { token, problem: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { token: "", problem: error.message };
  }
}

const SECRET_FIELDS = ["password", "confirm"];

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await pageData(() => readForm(request)), { schema: ResetPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });
  try {
    await validateCsrf(request);
    await resetPassword(context.db, submission.value.token, submission.value.password);
    const cookie = await destroyUserSession(context.db, request);
    return redirectWithToast("/auth/login", { title: "Пароль изменён", description: "Войдите с новым паролем. На всех устройствах выполнен выход." }, [cookie]);
  } catch (error) {
    return replyWithError(submission, error, SECRET_FIELDS);
  }
}

export default function PasswordResetPage({ loaderData }: Route.ComponentProps) {
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(ResetPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
  });
  if (loaderData.problem) {
    return (
      <Card>
        <CardHeader>
          <CardTitle className="font-heading text-2xl">Ссылка не работает</CardTitle>
          <CardDescription role="alert">{loaderData.problem}</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/auth/password/forgot" className="font-medium text-primary hover:underline">
            Запросить новую ссылку
          </Link>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="font-heading text-2xl">Новый пароль</CardTitle>
        <CardDescription>После смены пароля мы выйдем из аккаунта на всех устройствах.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <input type="hidden" name="token" value={loaderData.token} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field label="Новый пароль" id={fields.password.id} errors={fields.password.errors} description="Не короче 8 символов.">
            <Input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" autoFocus />
          </Field>
          <Field label="Повторите пароль" id={fields.confirm.id} errors={fields.confirm.errors}>
            <Input {...getInputProps(fields.confirm, { type: "password" })} autoComplete="new-password" />
          </Field>
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Сохраняем…" : "Сохранить пароль"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
