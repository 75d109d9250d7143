/**
 * Typed errors thrown by the domain (docs/product/engineering.md#errors). Each carries a
 * stable machine code for /api bodies, an HTTP status, and a Russian message for pages.
 * Routes never build error responses by hand: they call `toApiErrorResponse` or let the
 * page error boundary show the message.
 */

export class AppError extends Error {
  /** Machine-readable facts a client may show (e.g. a suspension's reason and end), sent in /api bodies as `errors.details`. */
  details?: Record<string, unknown>;

  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFound extends AppError {
  constructor(message = "Не найдено", code = "not_found") {
    super(code, 404, message);
  }
}

export class Unauthorized extends AppError {
  constructor(message = "Нужно войти на сайт", code = "unauthorized") {
    super(code, 401, message);
  }
}

export class Forbidden extends AppError {
  constructor(message = "Недостаточно прав", code = "forbidden") {
    super(code, 403, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, code = "conflict", fieldErrors?: Record<string, string[]>) {
    super(code, 409, message, fieldErrors);
  }
}

export class ValidationFailed extends AppError {
  constructor(message: string, fieldErrors?: Record<string, string[]>, code = "validation_failed") {
    super(code, 400, message, fieldErrors);
  }
}

/**
 * A money operation that would take an account below zero (docs/product/money.md#invariants). 422, not 409:
 * the request is well formed and conflicts with no concurrent change; the balance is short.
 */
export class InsufficientFunds extends AppError {
  constructor(message = "Недостаточно средств на балансе", code = "insufficient_funds") {
    super(code, 422, message);
  }
}

export class RateLimited extends AppError {
  constructor(
    readonly retryAfterMs: number,
    message = "Слишком много попыток. Попробуйте позже.",
    code = "rate_limited",
  ) {
    super(code, 429, message);
  }
}

/** `Retry-After` (whole seconds) for a RateLimited error, so every 429 says when to try again; undefined for other errors. */
export function retryAfterHeaders(error: unknown): Record<string, string> | undefined {
  return error instanceof RateLimited ? { "Retry-After": String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) } : undefined;
}

/**
 * The JSON body every /api error answers with: the reply envelope of docs/product/routes.md#reply-envelope (success
 * flag, errors object with message) plus a stable machine `code`.
 */
export interface ApiErrorBody {
  success: false;
  errors: { code: string; message: string; fields?: Record<string, string[]>; details?: Record<string, unknown> };
}

let reportUnexpected: (error: unknown) => void = () => {};

/**
 * Sets where toApiErrorResponse reports the errors it answers 500 for. This module is also
 * bundled for browsers (the forms' schemas throw its errors), so it cannot import the
 * server's logger: server/app.ts points this at the request's logger at start-up.
 */
export function reportUnexpectedErrorsTo(report: (error: unknown) => void): void {
  reportUnexpected = report;
}

/**
 * Maps an error to a JSON Response for /api routes. Unknown errors become 500 with code
 * `internal` and are reported (reportUnexpectedErrorsTo); AppErrors keep their status and code.
 */
export function toApiErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof AppError) {
    const body: ApiErrorBody = {
      success: false,
      errors: { code: error.code, message: error.message, fields: error.fieldErrors, details: error.details },
    };
    return Response.json(body, { status: error.status, headers: retryAfterHeaders(error) });
  }
  reportUnexpected(error);
  const body: ApiErrorBody = { success: false, errors: { code: "internal", message: "Внутренняя ошибка сервера" } };
  return Response.json(body, { status: 500 });
}

/** Runs an /api handler, turning thrown errors into JSON error responses. */
export async function handleApi(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    return toApiErrorResponse(error);
  }
}

/**
 * Runs a page loader or action body, turning a thrown AppError into a route error response
 * (status and Russian message), which the error page of docs/product/routes.md#error-page shows.
 */
export async function pageData<T>(handler: () => Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof AppError) {
      throw new Response(error.message, { status: error.status, headers: { "Content-Type": "text/plain; charset=utf-8", ...retryAfterHeaders(error) } });
    }
    throw error;
  }
}
