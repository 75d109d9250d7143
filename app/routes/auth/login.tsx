import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/login";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LoginSchema } from "~/domain/users/schemas";
import { authenticateWithForm, requireAnonymous } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { createUserSession, safeRedirect } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Вход");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(context, request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await pageData(() => readForm(request)), { schema: LoginSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  try {
    await validateCsrf(request);
    const user = await authenticateWithForm(context, request);
    const cookie = await createUserSession(context.db, user.id, {
      ip: context.clientIp,
      userAgent: request.headers.get("User-Agent"),
    });
    return redirectWithToast(safeRedirect(submission.value.redirect, "/"), { title: `Добро пожаловать, ${user.username}!` }, [cookie]);
  } catch (error) {
    return replyWithError(submission, error, ["password"]);
  }
}

export default function LoginPage() {
  const lastResult = useActionData<typeof action>()?.result;
  const [searchParams] = useSearchParams();
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="font-heading text-2xl">Вход</CardTitle>
        <CardDescription>Войдите, чтобы писать посты, общаться и проводить сделки.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <input type="hidden" name="redirect" value={searchParams.get("redirect") ?? ""} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field label="Email или имя пользователя" id={fields.email.id} errors={fields.email.errors}>
            <Input {...getInputProps(fields.email, { type: "text" })} autoComplete="username" autoFocus />
          </Field>
          <Field label="Пароль" id={fields.password.id} errors={fields.password.errors}>
            <Input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" />
          </Field>
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Входим…" : "Войти"}
          </Button>
        </Form>
        <div className="mt-6 flex flex-wrap justify-between gap-2 text-sm">
          <Link to="/auth/register" className="font-medium text-primary hover:underline">
            Нет аккаунта? Зарегистрируйтесь
          </Link>
          <Link to="/auth/password/forgot" className="text-muted-foreground hover:underline">
            Забыли пароль?
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}
