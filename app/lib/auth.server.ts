/**
 * Sign-in and route guards. remix-auth 4 runs the form strategy; this module turns its
 * result into a session (session.server.ts) and applies the login limit of docs/product/accounts.md#sign-in.
 */
import { redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { AppContext } from "~/lib/context";
import { LoginSchema } from "~/domain/users/schemas";
import { assertMaySignIn } from "~/domain/moderation/sanctions.server";
import { findUserByLogin, verifyCredentials, type UserRow } from "~/domain/users/users.server";
import { ValidationFailed } from "./errors";
import { beginLoginAttempt, finishLoginAttempt } from "./rate-limit.server";
import { getSessionUser, redirectToLogin } from "./session.server";

export const WRONG_CREDENTIALS_MESSAGE = "Неверный email или пароль";

/**
 * Verifies the email (or username) and password posted in `request`'s form through
 * remix-auth's FormStrategy. Returns the member.
 * Throws ValidationFailed (`invalid_credentials`, 400) on a wrong pair and RateLimited (429)
 * after 10 failures in 15 minutes for the account from this IP or 50 from this IP, and slows
 * attempts on an account tried too often from anywhere (rate-limit.server.ts beginLoginAttempt), counted
 * before the password check so parallel guesses cannot exceed it; AccountSuspended (403
 * `account_suspended`, with the reason and the end) for a suspended member with the right password.
 * The request body is read from a clone, so the caller may read it too.
 */
export async function authenticateWithForm(ctx: AppContext, request: Request): Promise<UserRow> {
  const authenticator = new Authenticator<UserRow>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const parsed = LoginSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) {
        throw new ValidationFailed("Проверьте поля формы", formatIssues(parsed.error.issues), "invalid_input");
      }
      const { email: login, password } = parsed.data;
      const candidate = await findUserByLogin(ctx.db, login);
      // One counter per account, whichever of its names was typed.
      const accountKey = candidate ? `user:${candidate.id}` : `login:${login.toLowerCase()}`;
      await beginLoginAttempt(ctx.db, accountKey, ctx.clientIp);
      const user = await verifyCredentials(ctx.db, login, password, candidate);
      if (!user) throw new ValidationFailed(WRONG_CREDENTIALS_MESSAGE, undefined, "invalid_credentials");
      await finishLoginAttempt(ctx.db, accountKey, ctx.clientIp);
      // Only once the password is right: a stranger learns nothing of someone else's suspension.
      await assertMaySignIn(ctx.db, user.id);
      return user;
    }),
    "form",
  );
  return authenticator.authenticate("form", request);
}

function formatIssues(issues: { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "");
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** The signed-in member or null. */
export function getOptionalUser(ctx: AppContext, request: Request): Promise<UserRow | null> {
  return getSessionUser(ctx.db, request, ctx);
}

/** The signed-in member; a visitor is redirected to /auth/login?redirect=<full path> (docs/product/routes.md#access-and-guards). */
export async function requireUser(ctx: AppContext, request: Request): Promise<UserRow> {
  const user = await getSessionUser(ctx.db, request, ctx);
  if (!user) redirectToLogin(request);
  return user;
}

/** For signed-out-only pages: a signed-in member is sent to /profile (docs/product/routes.md#access-and-guards). */
export async function requireAnonymous(ctx: AppContext, request: Request): Promise<void> {
  const user = await getSessionUser(ctx.db, request, ctx);
  if (user) throw redirect("/profile");
}
