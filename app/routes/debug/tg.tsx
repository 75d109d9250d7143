/**
 * /debug/tg (docs/product/pages.md#telegram-diagnostics): Telegram Mini App diagnostics —
 * whether Telegram's script and WebApp are there, the platform and version, the theme, and
 * whether the server validated this initData (the action checks it without signing in).
 */
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { Route } from "./+types/tg";
import { isTelegramLaunch, loadTelegramScript, TELEGRAM_AUTH_FLAG, telegramWebApp, waitForInitData, type TelegramWebApp } from "~/components/telegram/webapp";
import { checkInitData, type InitDataCheck } from "~/lib/telegram/init-data.server";

export async function loader({ context }: Route.LoaderArgs) {
  const { telegramBotToken, telegramInitDataMaxAgeS } = context.config;
  return { botConfigured: Boolean(telegramBotToken), maxAgeHours: telegramInitDataMaxAgeS / 3600 };
}

/** JSON `{initData}`: the server's verdict on it, without starting a session. */
export async function action({ request, context }: Route.ActionArgs) {
  const body: unknown = await request.json().catch(() => null);
  const initData = body && typeof body === "object" ? (body as { initData?: unknown }).initData : undefined;
  const check: InitDataCheck = checkInitData(
    initData,
    context.config.telegramBotToken,
    context.config.telegramInitDataMaxAgeS,
    new Date(),
    context.config.telegramInitDataMaxSkewS,
  );
  if (!check.ok) return { valid: false as const, reason: check.reason };
  const { id, username, authDate } = check.identity;
  return { valid: true as const, telegramId: id, username, authDate: authDate.toISOString() };
}

type Snapshot = {
  script: "loading" | "loaded" | "failed";
  launch: boolean;
  webApp: Pick<TelegramWebApp, "platform" | "version" | "colorScheme" | "themeParams"> | null;
  initDataLength: number;
  authSent: boolean;
};

export default function TelegramDebugPage({ loaderData }: Route.ComponentProps) {
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const fetcher = useFetcher<typeof action>();

  useEffect(() => {
    const launch = isTelegramLaunch();
    setSnapshot({ script: "loading", launch, webApp: null, initDataLength: 0, authSent: Boolean(sessionStorage.getItem(TELEGRAM_AUTH_FLAG)) });
    void (async () => {
      const loaded = await loadTelegramScript();
      const webApp = telegramWebApp();
      // As the sign-in does (docs/product/accounts.md#telegram-mini-app), give initData 50 × 100 ms to appear.
      const initData = webApp ? ((await waitForInitData(() => telegramWebApp()?.initData)) ?? "") : "";
      setSnapshot({
        script: loaded ? "loaded" : "failed",
        launch,
        webApp: webApp ? { platform: webApp.platform, version: webApp.version, colorScheme: webApp.colorScheme, themeParams: webApp.themeParams } : null,
        initDataLength: initData.length,
        authSent: Boolean(sessionStorage.getItem(TELEGRAM_AUTH_FLAG)),
      });
      if (initData) void fetcher.submit({ initData }, { method: "post", encType: "application/json" });
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once on load: the diagnostics describe this page load.
  }, []);

  const verdict = fetcher.data;
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold">Диагностика Telegram Mini App</h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="tg-diagnostics">
        <dt className="text-muted-foreground">Бот на сервере</dt>
        <dd>{loaderData.botConfigured ? `настроен, данные действуют ${loaderData.maxAgeHours} ч` : "не настроен (TELEGRAM_BOT_TOKEN)"}</dd>
        {snapshot ? (
          <>
            <dt className="text-muted-foreground">Запуск из Telegram</dt>
            <dd>{snapshot.launch ? "да" : "нет"}</dd>
            <dt className="text-muted-foreground">Скрипт Telegram</dt>
            <dd>{{ loading: "загружается…", loaded: "загружен", failed: "не загрузился" }[snapshot.script]}</dd>
            <dt className="text-muted-foreground">Платформа</dt>
            <dd>{snapshot.webApp?.platform ?? "—"}</dd>
            <dt className="text-muted-foreground">Версия</dt>
            <dd>{snapshot.webApp?.version ?? "—"}</dd>
            <dt className="text-muted-foreground">Схема</dt>
            <dd>{snapshot.webApp?.colorScheme ?? "—"}</dd>
            <dt className="text-muted-foreground">initData</dt>
            <dd>{snapshot.initDataLength > 0 ? `есть, ${snapshot.initDataLength} символов` : "нет"}</dd>
            <dt className="text-muted-foreground">Проверка на сервере</dt>
            <dd data-testid="tg-verdict">
              {snapshot.initDataLength === 0
                ? "нечего проверять"
                : !verdict
                  ? "проверяется…"
                  : verdict.valid
                    ? `прошла: Telegram id ${verdict.telegramId}${verdict.username ? ` (@${verdict.username})` : ""}`
                    : `не прошла (${verdict.reason})`}
            </dd>
            <dt className="text-muted-foreground">Вход отправлен</dt>
            <dd>{snapshot.authSent ? "да, в этой сессии браузера" : "нет"}</dd>
          </>
        ) : (
          <>
            <dt className="text-muted-foreground">Браузер</dt>
            <dd>Остальная диагностика работает с включённым JavaScript.</dd>
          </>
        )}
      </dl>
      {snapshot?.webApp?.themeParams ? (
        <section>
          <h2 className="mb-2 font-semibold">Цвета темы Telegram</h2>
          <ul className="grid grid-cols-2 gap-1 text-sm">
            {Object.entries(snapshot.webApp.themeParams).map(([name, colour]) => (
              <li key={name} className="flex items-center gap-2">
                <span className="inline-block size-4 rounded border border-border" style={{ background: colour }} />
                {name}: {colour}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
