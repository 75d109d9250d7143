/**
 * The existing ways in refuse a suspended member, and registration refuses while closed, each
 * with a clear Russian answer and never a 500 (issue 10): the login page's action, the
 * Auth.js-style POST /api/auth/callback/credentials, POST /api/auth/telegram and the
 * registration page. The route modules' actions run in-process on the test database.
 */
import { sign } from "@telegram-apps/init-data-node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~/db/schema";
import { suspendMember } from "~/domain/moderation/sanctions.server";
import { setRegistrationOpen } from "~/domain/moderation/settings.server";
import type { UserRow } from "~/domain/users/users.server";
import { getConfig } from "~/lib/config.server";
import type { AppContext } from "~/lib/context";
import { commitCsrfToken } from "~/lib/csrf.server";
import { formatDateTime } from "~/lib/format";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeMember } from "../../../tests/setup/moderation";
import { action as signInApi } from "../api/auth/signin";
import { action as telegramApi } from "../api/auth/telegram";
import { action as loginPage } from "./login";
import { action as registerPage } from "./register";
import { logger } from "~/lib/logger.server";

const BOT_TOKEN = "7000002:route-test-token";
let t: TestDatabase;
let context: AppContext;
let moderator: UserRow;
let admin: UserRow;
let ip = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  moderator = await makeMember(t.db, "moderator");
  admin = await makeMember(t.db, "admin");
  context = { db: t.db, config: { ...getConfig(), telegramBotToken: BOT_TOKEN }, clientIp: "10.20.0.1", cspNonce: "", requestId: "test", log: logger };
});
afterAll(async () => {
  await t.destroy();
});

/** A form POST to `url` carrying a fresh CSRF cookie and its token under `tokenField`. */
async function formPost(url: string, fields: Record<string, string>, tokenField = "csrf"): Promise<Request> {
  const [token, setCookie] = await commitCsrfToken(new Request("http://localhost/"));
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: setCookie!.split(";")[0]! },
    body: new URLSearchParams({ ...fields, [tokenField]: token }),
  });
}

type DataResult = { data: { result: { error?: Record<string, string[] | null> } }; init: { status?: number } | null };

/** Runs an action with a fresh client address (the login limit counts per address). */
function run<T>(action: (args: never) => Promise<T>, request: Request): Promise<T> {
  ip += 1;
  return action({ request, params: { provider: "credentials" }, context: { ...context, clientIp: `10.20.1.${ip}` } } as never);
}

describe(`sign-in refusals on ${engine}`, () => {
  it("the login page says why and until when, with 403 and no session", async () => {
    const member = await makeMember(t.db);
    const until = new Date(Date.now() + 3 * 86_400_000);
    await suspendMember(t.db, moderator.id, member.id, { reason: "Спам в личных сообщениях", endsAt: until });
    const answer = (await run(loginPage, await formPost("/auth/login", { email: member.email, password: "correct horse battery" }))) as unknown as DataResult;
    expect(answer.init?.status).toBe(403);
    expect(answer.data.result.error?.[""]).toEqual([
      `Ваша учётная запись заблокирована до ${formatDateTime(until.toISOString())} (МСК). Причина: Спам в личных сообщениях`,
    ]);
  });

  it("the Auth.js-style call answers 403 account_suspended with the reason and the end", async () => {
    const member = await makeMember(t.db);
    await suspendMember(t.db, moderator.id, member.id, { reason: "Мошенничество", endsAt: null });
    const response = await run(
      signInApi,
      await formPost("/api/auth/callback/credentials", { email: member.username, password: "correct horse battery", json: "true" }, "csrfToken"),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await response.json()).toEqual({
      success: false,
      errors: {
        code: "account_suspended",
        message: "Ваша учётная запись заблокирована бессрочно. Причина: Мошенничество",
        details: { reason: "Мошенничество", until: null },
      },
    });
  });

  it("Telegram sign-in answers {ok:false} 403 for a suspended linked member", async () => {
    const member = await makeMember(t.db);
    await t.db.update(users).set({ telegramId: 91_000_001 }).where(eq(users.id, member.id));
    await suspendMember(t.db, moderator.id, member.id, { reason: "Спам", endsAt: new Date(Date.now() + 86_400_000) });
    const initData = sign({ user: { id: 91_000_001, first_name: "Тест" }, query_id: "Q1" }, BOT_TOKEN, new Date());
    const request = new Request("http://localhost/api/auth/telegram", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ initData }),
    });
    const response = await run(telegramApi, request);
    expect(response.status).toBe(403);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await response.json()).toMatchObject({ ok: false, success: false, errors: { code: "account_suspended" } });
  });

  it("registration answers 403 with the Russian message while closed, and Telegram creates nobody", async () => {
    await setRegistrationOpen(t.db, admin.id, false);
    try {
      const answer = (await run(
        registerPage,
        await formPost("/auth/register", {
          username: "closed_door",
          email: "closed@example.test",
          password: "correct horse battery",
          confirmPassword: "correct horse battery",
        }),
      )) as unknown as DataResult;
      expect(answer.init?.status).toBe(403);
      expect(answer.data.result.error?.[""]).toEqual(["Регистрация новых участников сейчас закрыта. Загляните позже."]);
      const initData = sign({ user: { id: 91_000_002, first_name: "Новичок" }, query_id: "Q2" }, BOT_TOKEN, new Date());
      const request = new Request("http://localhost/api/auth/telegram", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ initData }),
      });
      const response = await run(telegramApi, request);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ ok: false, errors: { code: "registration_closed" } });
      expect(await t.db.select().from(users).where(eq(users.username, "closed_door"))).toEqual([]);
    } finally {
      await setRegistrationOpen(t.db, admin.id, true);
    }
  });
});
