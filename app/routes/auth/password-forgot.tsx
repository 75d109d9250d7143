/**
 * /auth/password/forgot (issue 6 "Email"): a visitor types their email and, when a member has
 * it, gets a reset link (valid 1 h). The answer is the same whether or not the address exists,
 * so the page reveals no accounts. CSRF and honeypot as on registration; at most 5 mails an
 * hour per address and 20 per IP (429 with a Russian message). Works with JavaScript off.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, useActionData, useNavigation, useSearchParams } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import type { Route } from "./+types/password-forgot";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { requestPasswordReset } from "~/domain/accounts/email-flows.server";
import { consumeMailLimit } from "~/domain/accounts/mail-limits.server";
import { ForgotPasswordSchema } from "~/domain/accounts/schemas";
import { requireAnonymous } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { checkHoneypot, honeypot } from "~/lib/honeypot.server";
import { MailFailed } from "~/lib/mail/mailer.server";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Восстановление пароля");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(context, request);
  return { honeypotProps: await honeypot().getInputProps() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await pageData(() => readForm(request));
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    await checkHoneypot(formData);
    await consumeMailLimit(context.db, submission.value.email, context.clientIp);
    try {
      await requestPasswordReset(context.db, submission.value.email);
    } catch (error) {
      // A failing mail server must not tell which addresses exist: log it and answer as usual.
      if (!(error instanceof MailFailed)) throw error;
    }
    return { result: submission.reply({ resetForm: true }), sentTo: submission.value.email };
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function PasswordForgotPage({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const sentTo = actionData && "sentTo" in actionData ? actionData.sentTo : null;
  const [searchParams] = useSearchParams();
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(ForgotPasswordSchema),
    defaultValue: { email: searchParams.get("email") ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="font-heading text-2xl">Восстановление пароля</CardTitle>
        <CardDescription>Укажите email аккаунта — пришлём ссылку, по которой можно задать новый пароль.</CardDescription>
      </CardHeader>
      <CardContent>
        {sentTo && (
          <p role="status" data-testid="forgot-sent" className="mb-4 rounded-md border border-primary/40 bg-primary/10 p-3 text-sm">
            Если аккаунт с адресом {sentTo} существует, мы отправили на него письмо со ссылкой. Ссылка действует 1 час.
          </p>
        )}
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <AuthenticityTokenInput />
          <HoneypotProvider {...loaderData.honeypotProps}>
            <HoneypotInputs label="Оставьте это поле пустым" />
          </HoneypotProvider>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
            <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" autoFocus />
          </Field>
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Отправляем…" : "Отправить ссылку"}
          </Button>
        </Form>
        <p className="mt-6 text-sm">
          <Link to="/auth/login" className="font-medium text-primary hover:underline">
            Вспомнили пароль? Войдите
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
