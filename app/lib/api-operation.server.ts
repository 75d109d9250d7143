/**
 * What the idempotent /api POST routes share — money (payments, deposits, admin top-up), guarantor
 * deals and claims (issue 5 "every money-moving request carries an idempotency key";
 * docs/product/routes.md#reply-envelope): sign-in, the CSRF token in `X-CSRF-Token` (GET /api/auth/csrf hands it to a
 * JSON client), the `Idempotency-Key` header, a JSON body checked by a Zod schema, and the
 * operation's result as `{success: true, data}`. One helper, so an empty body, a missing key or a
 * forged request get the same answer from every one of them.
 *
 * A retry with the same key and body answers the same result (the domain replays it through
 * runOperation, nothing happens twice); the same key with another body is 409
 * `idempotency_key_reused`. Every refusal is a JSON error with a stable code, never a 500.
 */
import { z } from "zod";
import type { UserRow } from "~/domain/users/users.server";
import { isValidIdempotencyKey } from "~/domain/ledger/operations.server";
import { MAX_OPERATION_KOPECKS } from "~/domain/ledger/money";
import { apiData, requireApiUser } from "./api.server";
import type { AppContext } from "./context";
import { validateCsrfHeaderOrForm } from "./csrf.server";
import { Forbidden, handleApi, ValidationFailed } from "./errors";
import { issueCode } from "./text";

/** The header carrying the client's idempotency key (1–200 printable ASCII characters, a UUID say). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

const AMOUNT_MESSAGE = "Сумма — целое число копеек от 1 до 1 000 000 000 (от 0,01 до 10 000 000 ₽)";

/** An amount in a JSON body: integer kopecks, 1…MAX_OPERATION_KOPECKS (refused as `invalid_amount`). */
export const amountSchema = z.number({ error: AMOUNT_MESSAGE }).int(AMOUNT_MESSAGE).min(1, AMOUNT_MESSAGE).max(MAX_OPERATION_KOPECKS, AMOUNT_MESSAGE);

/** A body the route hands to the domain unchecked (the domain validates it with its own codes, e.g. claims). */
export const anyJsonObject = z.record(z.string(), z.unknown());

/**
 * The stable code of a body refused by its schema, by the first failing field: the same codes
 * the ledger's domain functions use for the same mistakes; `invalid_input` for any other field.
 * A refinement that names its own code (`invalid_text`, app/lib/text.ts) wins.
 */
const FIELD_CODES: Record<string, string> = {
  amount: "invalid_amount",
  holdHours: "invalid_hold",
  memo: "invalid_memo",
  recipient: "invalid_recipient",
  memberId: "invalid_member",
};

export interface ApiOperationRequest<T> {
  user: UserRow;
  /** The body as the schema parsed it. */
  body: T;
  /** The client's idempotency key, already checked with isValidIdempotencyKey. */
  key: string;
}

export interface ApiOperationOptions {
  /** Admins only: 403 `not_admin` for anyone else. */
  adminOnly?: boolean;
  /** The success status (default 200; 201 for a route that creates something, e.g. POST /api/claims). */
  status?: number;
}

/**
 * Runs an idempotent POST: 401 `unauthorized` for a visitor, 403 `not_admin` when `adminOnly`
 * and the caller is not an admin, 403 `csrf_invalid` without a valid `X-CSRF-Token`, 400
 * `invalid_idempotency_key` without a valid `Idempotency-Key`, 400 `invalid_body` for a body
 * that is not a JSON object (an empty body counts as `{}`), 400 with a field code
 * (`invalid_text`, `invalid_amount`, `invalid_hold`, `invalid_memo`, `invalid_recipient`,
 * `invalid_member`, else `invalid_input`) and `fields` when `schema` refuses it; then answers
 * `{success: true, data: await run(...)}` with `options.status` (200), or the error `run`
 * throws (errors.ts: AppErrors keep their status and code).
 */
export function runApiOperation<S extends z.ZodType>(
  { request, context }: { request: Request; context: AppContext },
  schema: S,
  run: (input: ApiOperationRequest<z.output<S>>) => Promise<unknown>,
  options: ApiOperationOptions = {},
): Promise<Response> {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    if (options.adminOnly && user.role !== "admin") throw new Forbidden("Это может только администратор", "not_admin");
    await validateCsrfHeaderOrForm(request);
    const key = idempotencyKeyOf(request);
    const body = parseBody(schema, await readJsonObject(request));
    return apiData(await run({ user, body, key }), options.status === undefined ? undefined : { status: options.status });
  });
}

/** The request's `Idempotency-Key`. Throws ValidationFailed (`invalid_idempotency_key`, 400) when missing or malformed. */
export function idempotencyKeyOf(request: Request): string {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null || !isValidIdempotencyKey(key)) {
    const message = "Нужен заголовок Idempotency-Key: от 1 до 200 видимых символов ASCII (например, UUID)";
    throw new ValidationFailed(message, { idempotencyKey: [message] }, "invalid_idempotency_key");
  }
  return key;
}

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const refuse = () => new ValidationFailed("Тело запроса должно быть JSON-объектом", undefined, "invalid_body");
  let text: string;
  try {
    text = await request.text();
  } catch {
    throw refuse();
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw refuse();
  return value as Record<string, unknown>;
}

function parseBody<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "body")] ??= []).push(issue.message);
  const first = parsed.error.issues[0];
  const code = parsed.error.issues.map(issueCode).find((found) => found !== undefined) ?? FIELD_CODES[String(first?.path[0])] ?? "invalid_input";
  throw new ValidationFailed(first?.message ?? "Проверьте данные запроса", fields, code);
}
