import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, useActionData, useNavigation, useSearchParams } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import type { Route } from "./+types/login";
import { FormErrors } from "~/components/forms/form-errors";
import { RecaptchaField } from "~/components/recaptcha/recaptcha-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LoginSchema } from "~/domain/users/schemas";
import { authenticateWithForm, requireAnonymous } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { checkHoneypot, honeypot } from "~/lib/honeypot.server";
import { pageMeta } from "~/lib/meta";
import { checkRecaptcha, recaptchaSiteKey } from "~/lib/recaptcha/check.server";
import { createUserSession, safeRedirect } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Вход");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(context, request);
  return { honeypotProps: await honeypot().getInputProps(), recaptchaSiteKey: recaptchaSiteKey() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await pageData(() => readForm(request));
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  try {
    await validateCsrf(request);
    // The honeypot is checked when its field came with the form: older clients posting the
    // form directly (and the API tests) omit it, and the login rate limit still applies to them.
    if (formData.has((await honeypot().getInputProps()).nameFieldName)) await checkHoneypot(formData);
    await checkRecaptcha(formData, "login", context.clientIp);
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

export default function LoginPage({ loaderData }: Route.ComponentProps) {
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
        <h1 className="font-heading text-2xl leading-tight font-semibold tracking-tight">Вход</h1>
        <CardDescription>Войдите, чтобы писать посты, общаться и проводить сделки.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <HoneypotProvider {...loaderData.honeypotProps}>
            <HoneypotInputs label="Оставьте это поле пустым" />
          </HoneypotProvider>
          <RecaptchaField siteKey={loaderData.recaptchaSiteKey} action="login" />
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
