/**
 * /auth/email/validate (issue 6 "Email"; docs/product/routes.md#access-and-guards): `?token=…`
 * from the verification mail marks the member's address verified. Signed-out readers see the
 * result here; a signed-in member is sent to /profile with the result as a toast, as the other
 * auth pages do (docs/product/routes.md#access-and-guards). POST (CSRF; from the Email section of /profile/settings) mails a
 * signed-in, unverified member a new link: at most 5 mails an hour per address and 20 per IP.
 * Works with JavaScript off.
 */
import { data, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/email-validate";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { sendVerificationEmail, verifyEmail } from "~/domain/accounts/email-flows.server";
import { consumeMailLimit } from "~/domain/accounts/mail-limits.server";
import { getOptionalUser, requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { FAILURE_TITLE } from "~/lib/reply-toast";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Подтверждение email");

type Outcome = { status: "verified" } | { status: "failed"; message: string } | { status: "none" };

/** Where the resend form lives, and where its answers go. */
const EMAIL_SETTINGS = "/profile/settings#email";

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
  if (user) {
    if (outcome.status === "verified") throw await redirectWithToast("/profile", { title: "Email подтверждён", description: "Спасибо! Адрес подтверждён." });
    if (outcome.status === "failed") throw await redirectWithToast("/profile", { title: FAILURE_TITLE, description: outcome.message, variant: "destructive" });
    throw redirect("/profile");
  }
  return { outcome };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  try {
    await validateCsrf(request);
    if (user.emailVerified) return redirectWithToast(EMAIL_SETTINGS, { title: "Email уже подтверждён" });
    await consumeMailLimit(context.db, user.email, context.clientIp);
    await sendVerificationEmail(context.db, user);
    return redirectWithToast(EMAIL_SETTINGS, { title: "Письмо отправлено", description: `Проверьте почту ${user.email}.` });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // A forged form (403) shows the error page, not a toast on the member's settings page.
    if (error.status === 403) throw data(error.message, { status: 403 });
    return redirectWithToast(EMAIL_SETTINGS, { title: FAILURE_TITLE, description: error.message, variant: "destructive" });
  }
}

export default function EmailValidatePage({ loaderData }: Route.ComponentProps) {
  const { outcome } = loaderData;
  const title = outcome.status === "verified" ? "Email подтверждён" : outcome.status === "failed" ? "Не удалось подтвердить email" : "Подтверждение email";
  return (
    <Card data-testid="email-validate">
      <CardHeader>
        <CardTitle className="font-heading text-2xl">{title}</CardTitle>
        <CardDescription role={outcome.status === "none" ? undefined : "status"}>
          {outcome.status === "verified" && "Спасибо! Адрес подтверждён."}
          {outcome.status === "failed" && outcome.message}
          {outcome.status === "none" && "Перейдите по ссылке из письма, которое мы отправили после регистрации."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Link to="/auth/login" className="font-medium text-primary hover:underline">
          Перейти ко входу
        </Link>
      </CardContent>
    </Card>
  );
}
