/**
 * Helpers for /api routes: the success envelope of docs/product/routes.md#reply-envelope and the signed-in caller.
 * Errors go through `handleApi` (errors.ts), which answers `{success: false, errors: {code, message}}`.
 */
import type { AppContext } from "./context";
import { AppError, toApiErrorResponse, Unauthorized } from "./errors";
import { getSessionUser } from "./session.server";
import type { UserRow } from "~/domain/users/users.server";

/** `{success: true, data}` with status 200 (or `init.status`). */
export function apiData<T>(data: T, init?: ResponseInit): Response {
  return Response.json({ success: true, data }, init);
}

/** The member signed in by cookie. Throws Unauthorized (401, `unauthorized`) for a visitor. */
export async function requireApiUser(ctx: AppContext, request: Request): Promise<UserRow> {
  const user = await getSessionUser(ctx.db, request, ctx);
  if (!user) throw new Unauthorized();
  return user;
}

/**
 * The answer of an /api route to a method it does not serve: JSON 405 `method_not_allowed`.
 * Export it as the `action` of read-only routes (and as the `loader` of write-only ones).
 */
export async function methodNotAllowed(): Promise<Response> {
  return toApiErrorResponse(new AppError("method_not_allowed", 405, "Метод не поддерживается"));
}
