/**
 * /auth/email/validate (issue 6 "Email"): `?token=…` from the verification mail marks the
 * member's address verified and shows the result. A signed-in member whose address is not
 * verified can ask for a new link here (POST, CSRF; at most 5 mails an hour per address and
 * 20 per IP). Works with JavaScript off.
 */
import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/email-validate";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { sendVerificationEmail, verifyEmail } from "~/domain/accounts/email-flows.server";
import { consumeMailLimit } from "~/domain/accounts/mail-limits.server";
import { getOptionalUser, requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Подтверждение email");

type Outcome = { status: "verified" } | { status: "failed"; message: string } | { status: "none" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  let outcome: Outcome = { status: "none" };
  if (token !== null) {
    try {
      await verifyEmail(context.db, token);
      outcome = { status: "verified" };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome = { status: "failed", message: error.message };
    }
  }
  const user = await getOptionalUser(context, request);
  return { outcome, viewer: user ? { email: user.email, verified: user.emailVerified || outcome.status === "verified" } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  try {
    await validateCsrf(request);
    if (user.emailVerified) return redirectWithToast("/profile", { title: "Email уже подтверждён" });
    await consumeMailLimit(context.db, user.email, context.clientIp);
    await sendVerificationEmail(context.db, user);
    return redirectWithToast("/auth/email/validate", { title: "Письмо отправлено", description: `Проверьте почту ${user.email}.` });
  } catch (error) {
    if (error instanceof AppError) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function EmailValidatePage({ loaderData }: Route.ComponentProps) {
  const { outcome, viewer } = loaderData;
  const error = useActionData<typeof action>()?.error;
  const sending = useNavigation().state === "submitting";
  const title = outcome.status === "verified" ? "Email подтверждён" : outcome.status === "failed" ? "Не удалось подтвердить email" : "Подтверждение email";
  return (
    <Card data-testid="email-validate">
      <CardHeader>
        <CardTitle className="font-heading text-2xl">{title}</CardTitle>
        <CardDescription role={outcome.status === "none" ? undefined : "status"}>
          {outcome.status === "verified" && "Спасибо! Адрес подтверждён."}
          {outcome.status === "failed" && outcome.message}
          {outcome.status === "none" &&
            (viewer?.verified ? `Ваш адрес ${viewer.email} уже подтверждён.` : "Перейдите по ссылке из письма, которое мы отправили после регистрации.")}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {viewer && !viewer.verified && (
          <Form method="post" className="grid gap-3">
            <AuthenticityTokenInput />
            <FormErrors errors={error ? [error] : []} />
            <p className="text-sm text-muted-foreground">Письмо не пришло? Отправим новую ссылку на {viewer.email}.</p>
            <Button type="submit" variant="outline" disabled={sending}>
              {sending ? "Отправляем…" : "Отправить ссылку ещё раз"}
            </Button>
          </Form>
        )}
        <Link to={viewer ? "/profile" : "/auth/login"} className="font-medium text-primary hover:underline">
          {viewer ? "Перейти в профиль" : "Перейти ко входу"}
        </Link>
      </CardContent>
    </Card>
  );
}
