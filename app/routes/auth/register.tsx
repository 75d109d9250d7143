import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, useActionData, useNavigation, useSearchParams } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import type { Route } from "./+types/register";
import { FormErrors } from "~/components/forms/form-errors";
import { RecaptchaField } from "~/components/recaptcha/recaptcha-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { sendVerificationEmail } from "~/domain/accounts/email-flows.server";
import { RegisterSchema } from "~/domain/users/schemas";
import { registerUser } from "~/domain/users/users.server";
import { requireAnonymous } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { checkHoneypot, honeypot } from "~/lib/honeypot.server";
import { pageMeta } from "~/lib/meta";
import { checkRecaptcha, recaptchaSiteKey } from "~/lib/recaptcha/check.server";
import { withLimit } from "~/lib/rate-limit.server";
import { createUserSession, safeRedirect } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";

/** The refusal of the registrations limit (5 an hour per address, docs/product/limits.md#rate-limits). */
const REGISTRATION_RATE_MESSAGE = "С этого адреса уже зарегистрировано слишком много аккаунтов. Попробуйте позже.";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Регистрация");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(context, request);
  return { honeypotProps: await honeypot().getInputProps(), recaptchaSiteKey: recaptchaSiteKey() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await pageData(() => readForm(request));
  const submission = parseWithZod(formData, { schema: RegisterSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  try {
    await validateCsrf(request);
    await checkHoneypot(formData);
    await checkRecaptcha(formData, "register", context.clientIp);
    const user = await withLimit(context.db, "registrations", context.clientIp, REGISTRATION_RATE_MESSAGE, () => registerUser(context.db, submission.value));
    // The account exists either way: a mail failure is logged, and the member can resend from /auth/email/validate.
    await sendVerificationEmail(context.db, user).catch((error: unknown) =>
      context.log.error({ err: error, area: "registration" }, "verification mail failed"),
    );
    const cookie = await createUserSession(context.db, user.id, {
      ip: context.clientIp,
      userAgent: request.headers.get("User-Agent"),
    });
    return redirectWithToast(
      safeRedirect(submission.value.redirect, "/"),
      { title: "Аккаунт создан", description: `Добро пожаловать в сообщество, ${user.username}! Мы отправили письмо для подтверждения на ${user.email}.` },
      [cookie],
    );
  } catch (error) {
    return replyWithError(submission, error, ["password"]);
  }
}

export default function RegisterPage({ loaderData }: Route.ComponentProps) {
  const lastResult = useActionData<typeof action>()?.result;
  const [searchParams] = useSearchParams();
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(RegisterSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
  });
  return (
    <Card>
      <CardHeader>
        <h1 className="font-heading text-2xl leading-tight font-semibold tracking-tight">Регистрация</h1>
        <CardDescription>Аккаунт нужен, чтобы публиковать посты, общаться в чатах и заключать сделки через гаранта.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <HoneypotProvider {...loaderData.honeypotProps}>
            <HoneypotInputs label="Оставьте это поле пустым" />
          </HoneypotProvider>
          <RecaptchaField siteKey={loaderData.recaptchaSiteKey} action="register" />
          <input type="hidden" name="redirect" value={searchParams.get("redirect") ?? ""} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label="Имя пользователя"
            id={fields.username.id}
            errors={fields.username.errors}
            description="3–32 символа: буквы, цифры и _. Так вас будут упоминать: @имя."
          >
            <Input {...getInputProps(fields.username, { type: "text" })} autoComplete="username" autoFocus />
          </Field>
          <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
            <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
          </Field>
          <Field label="Пароль" id={fields.password.id} errors={fields.password.errors} description="Не короче 8 символов.">
            <Input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" />
          </Field>
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Создаём аккаунт…" : "Зарегистрироваться"}
          </Button>
        </Form>
        <p className="mt-6 text-sm">
          <Link to="/auth/login" className="font-medium text-primary hover:underline">
            Уже есть аккаунт? Войдите
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
