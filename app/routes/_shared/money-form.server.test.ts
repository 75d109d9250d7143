/**
 * runFormAction (app/routes/_shared/money-form.server.ts), the one way the money pages run a form: what a
 * member sees for each kind of answer — a redirect with a toast, field errors beside the fields,
 * «Форма устарела…» for a bad or reused idempotency key, a refusal's status — on a real session,
 * CSRF token and database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDatabase, engine, type TestDatabase } from "../../../tests/setup/database";
import { makeUser } from "../../../tests/setup/factories";
import type { AppContext } from "~/lib/context";
import { commitCsrfToken } from "~/lib/csrf.server";
import { Conflict, InsufficientFunds, NotFound, ValidationFailed } from "~/lib/errors";
import { IdempotencyKeySchema, STALE_FORM_MESSAGE } from "~/lib/idempotency";
import { runFormAction, type FormActionDone } from "./money-form.server";
import { createUserSession } from "~/lib/session.server";
import { takeToast } from "~/lib/toast.server";

const Schema = z.object({
  intent: z.literal("transfer"),
  key: IdempotencyKeySchema,
  recipient: z.string({ error: "Укажите имя получателя" }).min(1, "Укажите имя получателя"),
  amount: z.coerce.number({ error: "Введите сумму" }).int("Введите сумму").positive("Введите сумму"),
});

let t: TestDatabase;
let ctx: AppContext;
let cookies: string;
let csrfToken: string;
beforeAll(async () => {
  t = await createTestDatabase();
  ctx = { db: t.db } as AppContext;
  const user = await makeUser(t.db);
  const session = await createUserSession(t.db, user.id, {});
  const [token, csrfCookie] = await commitCsrfToken(new Request("http://localhost/"));
  csrfToken = token;
  cookies = [session.split(";")[0], csrfCookie!.split(";")[0]].join("; ");
});
afterAll(async () => {
  await t.destroy();
});

function post(fields: Record<string, string>, { signedIn = true, csrf = true } = {}): Request {
  const body = new URLSearchParams({ intent: "transfer", key: "3f0c2a5e-key", recipient: "ivan", amount: "150", ...fields });
  if (csrf) body.set("csrf", csrfToken);
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (signedIn) headers.Cookie = cookies;
  return new Request("http://localhost/profile/wallet?page=2", { method: "POST", headers, body });
}

/** The action's refusal: its status, intent, `ok`, stable code and Conform's errors. */
function refusal(answer: unknown) {
  const { data, init } = answer as {
    data: { intent: string; ok?: boolean; code?: string; result: { error?: Record<string, string[] | null> } };
    init: ResponseInit | null;
  };
  return { status: init?.status, intent: data.intent, ok: data.ok, code: data.code, errors: data.result.error ?? {} };
}

const run = (request: Request, perform: () => Promise<FormActionDone>, fieldFor?: Record<string, string | string[]>) =>
  runFormAction(ctx, request, { schema: Schema, perform: async () => perform(), fieldFor });

describe(`runFormAction on ${engine}`, () => {
  it("redirects back to the page (or redirectTo) with the toast after the domain call succeeds", async () => {
    const seen: unknown[] = [];
    const answer = await runFormAction(ctx, post({}), {
      schema: Schema,
      async perform(actor, input) {
        seen.push(actor.id, input);
        return { toast: { title: "Переведено 150,00 ₽" } };
      },
    });
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/profile/wallet?page=2");
    expect(seen[1]).toEqual({ intent: "transfer", key: "3f0c2a5e-key", recipient: "ivan", amount: 150 });
    const next = new Request("http://localhost/", { headers: { Cookie: response.headers.get("Set-Cookie")!.split(";")[0]! } });
    expect((await takeToast(next)).toast).toEqual({ title: "Переведено 150,00 ₽" });

    const elsewhere = (await run(post({}), async () => ({ redirectTo: "/claims/7", toast: { title: "Готово" } }))) as Response;
    expect(elsewhere.headers.get("Location")).toBe("/claims/7");
  });

  it("answers bad input with 400 and the messages beside their fields, without calling the domain", async () => {
    let called = false;
    const answer = await run(post({ amount: "", recipient: "" }), async () => {
      called = true;
      return { toast: { title: "?" } };
    });
    expect(called).toBe(false);
    const { status, intent, ok, code, errors } = refusal(answer);
    expect(status).toBe(400);
    expect(intent).toBe("transfer");
    expect({ ok, code }).toEqual({ ok: false, code: "validation_failed" });
    expect(errors.amount).toEqual(["Введите сумму"]);
    expect(errors.recipient).toEqual(["Укажите имя получателя"]);
    expect(errors[""] ?? null).toBeNull();
  });

  it("says «Форма устарела…» at the top of the form for a malformed idempotency key", async () => {
    const { status, code, errors } = refusal(await run(post({ key: "two words" }), async () => ({ toast: { title: "?" } })));
    expect(status).toBe(400);
    expect(code).toBe("invalid_idempotency_key");
    expect(errors[""]).toEqual([STALE_FORM_MESSAGE]);
  });

  it("says «Форма устарела…» for a key already used for another request, with its 409", async () => {
    const reused = new Conflict("Этот ключ идемпотентности уже использован для другого запроса", "idempotency_key_reused");
    const { status, errors } = refusal(await run(post({}), () => Promise.reject(reused)));
    expect(status).toBe(409);
    expect(errors).toEqual({ "": [STALE_FORM_MESSAGE] });
    const invalidKey = new ValidationFailed("Неверный ключ", { idempotencyKey: ["Нужен ключ"] }, "invalid_idempotency_key");
    expect(refusal(await run(post({}), () => Promise.reject(invalidKey))).errors).toEqual({ "": [STALE_FORM_MESSAGE] });
  });

  it("puts a refusal's field errors beside the posted fields and the rest at the top, with the error's status", async () => {
    const beside = new ValidationFailed("Нельзя перевести самому себе", { recipient: ["Нельзя перевести самому себе"] }, "transfer_to_self");
    const answer = refusal(await run(post({}), () => Promise.reject(beside)));
    expect(answer.status).toBe(400);
    expect({ ok: answer.ok, code: answer.code }).toEqual({ ok: false, code: "transfer_to_self" });
    expect(answer.errors.recipient).toEqual(["Нельзя перевести самому себе"]);
    expect(answer.errors[""] ?? []).toEqual([]);

    const elsewhere = new ValidationFailed("Неизвестное действие", { action: ["Неизвестное действие"] }, "invalid_action");
    expect(refusal(await run(post({}), () => Promise.reject(elsewhere))).errors[""]).toEqual(["Неизвестное действие"]);

    const short = refusal(await run(post({}), () => Promise.reject(new InsufficientFunds())));
    expect(short.status).toBe(422);
    expect({ ok: short.ok, code: short.code }).toEqual({ ok: false, code: "insufficient_funds" });
    expect(short.errors[""]).toEqual(["Недостаточно средств на балансе"]);
  });

  it("puts the codes of `fieldFor` under the first of their fields the form posted", async () => {
    const missing = new NotFound("Получатель не найден", "recipient_not_found");
    const answer = refusal(await run(post({}), () => Promise.reject(missing), { recipient_not_found: ["member", "recipient"] }));
    expect(answer.status).toBe(404);
    expect(answer.code).toBe("recipient_not_found");
    expect(answer.errors.recipient).toEqual(["Получатель не найден"]);
    expect(answer.errors[""] ?? []).toEqual([]);
  });

  it("refuses a post without the CSRF token (403) before the domain runs, and rethrows unexpected errors", async () => {
    let called = false;
    const forged = refusal(
      await run(post({}, { csrf: false }), async () => {
        called = true;
        return { toast: { title: "?" } };
      }),
    );
    expect(called).toBe(false);
    expect(forged.status).toBe(403);
    await expect(run(post({}), () => Promise.reject(new TypeError("bug")))).rejects.toThrow("bug");
  });

  it("sends a signed-out visitor to sign in and back", async () => {
    const thrown = await run(post({}, { signedIn: false }), async () => ({ toast: { title: "?" } })).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe(`/auth/login?redirect=${encodeURIComponent("/profile/wallet?page=2")}`);
  });
});
