/**
 * POST /api/auth/telegram (docs/product/accounts.md#telegram-mini-app, issue 6 "Telegram sign-in"): JSON `{initData}` from the
 * Mini App. Valid initData signs in the linked member or a new one (telegram/members.server.ts)
 * and answers `{ok: true}` with the session cookie (sessions.method "telegram", a sign_in_events
 * row). Anything else answers `{ok: false}` with the /api error envelope and no session:
 * 415 `json_required` (not application/json), 400 `init_data_missing`, 401 `init_data_invalid`
 * (bad or tampered hash or fields), 401 `init_data_stale` (auth_date older than
 * TELEGRAM_INIT_DATA_MAX_AGE), 401 `init_data_future` (auth_date more than
 * TELEGRAM_INIT_DATA_MAX_SKEW ahead of the server's clock), 401 `init_data_no_user`, 503 `telegram_not_configured` (no
 * TELEGRAM_BOT_TOKEN), 429 `rate_limited` (the login limit per account and address: 10 failures per
 * 15 minutes per IP, app/lib/rate-limit.server.ts).
 *
 * CSRF: no token is needed. The body must be `application/json`, which a cross-site form cannot
 * send and a cross-site fetch can only send after a CORS preflight this server never approves;
 * and the request acts on no existing session: it only proves, by Telegram's signature, who the
 * Telegram user is.
 * Replays: the same initData may sign in again while it is fresh (auth_date within the max age,
 * 24 h by default), as Telegram's own data stays the same for the Mini App's life; it always
 * signs in the Telegram user it was signed for, never another member.
 */
import type { Route } from "./+types/telegram";
import { AppError, toApiErrorResponse } from "~/lib/errors";
import { beginLoginAttempt, finishLoginAttempt } from "~/lib/rate-limit.server";
import { createUserSession } from "~/lib/session.server";
import { checkInitData, type InitDataFailure } from "~/lib/telegram/init-data.server";
import { signInTelegramMember } from "~/lib/telegram/members.server";

export { methodNotAllowed as loader } from "~/lib/api.server";

const FAILURES: Record<InitDataFailure, { status: number; message: string }> = {
  telegram_not_configured: { status: 503, message: "Вход через Telegram не настроен" },
  init_data_missing: { status: 400, message: "Нет данных Telegram для входа" },
  init_data_invalid: { status: 401, message: "Данные Telegram не прошли проверку" },
  init_data_stale: { status: 401, message: "Данные Telegram устарели, откройте приложение заново" },
  init_data_future: { status: 401, message: "Данные Telegram подписаны в будущем: проверьте часы устройства" },
  init_data_no_user: { status: 401, message: "В данных Telegram нет пользователя" },
};

let warnedNotConfigured = false;

export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (!/^application\/json\b/i.test(request.headers.get("Content-Type") ?? "")) {
      throw new AppError("json_required", 415, "Ожидается JSON: {initData}");
    }
    const body: unknown = await request.json().catch(() => null);
    const initData = body && typeof body === "object" ? (body as { initData?: unknown }).initData : undefined;
    const { telegramBotToken, telegramInitDataMaxAgeS, telegramInitDataMaxSkewS } = context.config;
    if (!telegramBotToken) {
      if (!warnedNotConfigured) context.log.warn("POST /api/auth/telegram: TELEGRAM_BOT_TOKEN is not set, Telegram sign-in is off");
      warnedNotConfigured = true;
      return refuse("telegram_not_configured");
    }
    // Counted before the check, as password sign-in is, so parallel forgeries cannot exceed the limit.
    const accountKey = `telegram-ip:${context.clientIp}`;
    await beginLoginAttempt(context.db, accountKey, context.clientIp);
    const check = checkInitData(initData, telegramBotToken, telegramInitDataMaxAgeS, new Date(), telegramInitDataMaxSkewS);
    if (!check.ok) return refuse(check.reason);
    await finishLoginAttempt(context.db, accountKey, context.clientIp);
    const { user } = await signInTelegramMember(context.db, check.identity);
    const cookie = await createUserSession(context.db, user.id, {
      ip: context.clientIp,
      userAgent: request.headers.get("User-Agent"),
      method: "telegram",
    });
    return Response.json({ ok: true }, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  } catch (error) {
    return withOk(toApiErrorResponse(error));
  }
}

function refuse(reason: InitDataFailure): Response {
  const { status, message } = FAILURES[reason];
  return Response.json({ ok: false, success: false, errors: { code: reason, message } }, { status });
}

/** The /api error response with `ok: false` added, as the Mini App reads `{ok}`. */
async function withOk(response: Response): Promise<Response> {
  const body = (await response.json()) as Record<string, unknown>;
  return Response.json({ ok: false, ...body }, { status: response.status, headers: response.headers });
}
