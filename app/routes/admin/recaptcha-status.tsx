/**
 * /admin/recaptcha-status (admins only; issue 6 "Captcha"): whether reCAPTCHA is on, which keys
 * are present (never their values' secret part), the minimum score, and the last 50 outcomes
 * of this server process. A visitor is sent to sign in; a member who is not an admin gets 403
 * (`not_admin`), as the admin top-up does.
 */
import type { Route } from "./+types/recaptcha-status";
import { Badge } from "~/components/ui/badge";
import { requireUser } from "~/lib/auth.server";
import { Forbidden, pageData } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { recaptchaStatus } from "~/lib/recaptcha/check.server";
import { OUTCOME_LIMIT, recentRecaptchaOutcomes } from "~/lib/recaptcha/outcomes.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Состояние reCAPTCHA");

const REASONS: Record<string, string> = {
  ok: "пройдена",
  missing_token: "нет токена",
  rejected: "отклонена Google",
  low_score: "низкая оценка",
  wrong_action: "чужое действие",
  unavailable: "Google недоступен",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    if (user.role !== "admin") throw new Forbidden("Страница доступна только администраторам", "not_admin");
    const status = recaptchaStatus();
    return {
      enabled: status.enabled,
      siteKeyPresent: status.siteKeyPresent,
      secretKeyPresent: status.secretKeyPresent,
      siteKey: status.siteKey,
      minScore: status.minScore,
      customVerifyUrl: status.customVerifyUrl,
      outcomes: recentRecaptchaOutcomes(),
      outcomeLimit: OUTCOME_LIMIT,
    };
  });
}

function Present({ yes }: { yes: boolean }) {
  return yes ? <Badge variant="success">задан</Badge> : <Badge variant="outline">не задан</Badge>;
}

export default function RecaptchaStatusPage({ loaderData: s }: Route.ComponentProps) {
  return (
    <div className="grid gap-6">
      <h1 className="font-heading text-3xl font-extrabold">Состояние reCAPTCHA</h1>
      <dl className="grid gap-2 sm:grid-cols-[max-content_1fr] sm:gap-x-6" data-testid="recaptcha-config">
        <dt className="text-muted-foreground">Проверка</dt>
        <dd>{s.enabled ? <Badge variant="success">включена</Badge> : <Badge variant="warning">выключена</Badge>}</dd>
        <dt className="text-muted-foreground">RECAPTCHA_SITE_KEY</dt>
        <dd>
          <Present yes={s.siteKeyPresent} /> {s.siteKey ? <code className="text-sm">{s.siteKey}</code> : null}
        </dd>
        <dt className="text-muted-foreground">RECAPTCHA_SECRET_KEY</dt>
        <dd>
          <Present yes={s.secretKeyPresent} />
        </dd>
        <dt className="text-muted-foreground">Минимальная оценка</dt>
        <dd>{s.minScore}</dd>
        {s.customVerifyUrl ? (
          <>
            <dt className="text-muted-foreground">Проверка токенов</dt>
            <dd>нестандартный адрес (RECAPTCHA_VERIFY_URL, только для тестов)</dd>
          </>
        ) : null}
      </dl>
      {!s.enabled ? (
        <p className="text-muted-foreground">Чтобы включить reCAPTCHA v3 на входе и регистрации, задайте оба ключа и перезапустите сервер.</p>
      ) : null}
      <section className="grid gap-3">
        <h2 className="font-heading text-xl font-bold">Последние проверки (до {s.outcomeLimit}, с запуска сервера)</h2>
        {s.outcomes.length === 0 ? (
          <p className="text-muted-foreground">Проверок ещё не было.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="recaptcha-outcomes">
              <thead className="text-muted-foreground">
                <tr>
                  <th className="py-2 pr-4 font-medium">Время</th>
                  <th className="py-2 pr-4 font-medium">Действие</th>
                  <th className="py-2 pr-4 font-medium">Оценка</th>
                  <th className="py-2 pr-4 font-medium">Итог</th>
                  <th className="py-2 font-medium">Коды ошибок</th>
                </tr>
              </thead>
              <tbody>
                {s.outcomes.map((o, i) => (
                  <tr key={`${o.at}-${i}`} className="border-t">
                    <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(o.at)}</td>
                    <td className="py-2 pr-4">{o.action === "login" ? "вход" : "регистрация"}</td>
                    <td className="py-2 pr-4">{o.score ?? "—"}</td>
                    <td className="py-2 pr-4">
                      {REASONS[o.reason] ?? o.reason}
                      {o.failedOpen ? " (форма пропущена)" : ""}
                    </td>
                    <td className="py-2">{o.errorCodes.length > 0 ? o.errorCodes.join(", ") : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
