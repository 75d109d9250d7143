/**
 * The action shared by /profile/wallet and /profile/deposit (issue 5 items 2, 3, 7): every form
 * names its `intent` and carries the idempotency key the page's loader made.
 *
 * - Success: a redirect back to the page with a Russian toast (post/redirect/get: reloading the
 *   page never posts again; with JavaScript the router follows it and reloads the data).
 * - A refusal (bad input, insufficient funds, an open claim…) renders the page again with
 *   Conform's reply under `intent`, so the Russian message shows beside its form and what was
 *   typed stays; the status is the error's (400, 404, 409, 422). Nothing changed: refused money
 *   operations roll back whole.
 * CSRF is checked before anything runs.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import type { MoneyActionData } from "~/components/wallet/action-data";
import type { UserRow } from "~/domain/users/users.server";
import { requireUser } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { redirectWithToast, type FlashToast } from "~/lib/toast.server";

const STALE_FORM = "Форма устарела: обновите страницу и отправьте её ещё раз";

export async function runMoneyAction<S extends z.ZodType>(
  ctx: AppContext,
  request: Request,
  schema: S,
  perform: (actor: UserRow, input: z.infer<S>) => Promise<FlashToast>,
) {
  const actor = await requireUser(ctx, request);
  const form = await pageData(() => readForm(request));
  const intent = String(form.get("intent") ?? "");
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") {
    return data<MoneyActionData>({ intent, result: submission.reply() }, { status: 400 });
  }
  try {
    await validateCsrf(request);
    const toast = await perform(actor, submission.value as z.infer<S>);
    const here = new URL(request.url);
    return redirectWithToast(here.pathname + here.search, toast);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const stale = error.code === "idempotency_key_reused" || error.code === "invalid_idempotency_key";
    const message = stale ? STALE_FORM : error.message;
    const result = submission.reply({ formErrors: error.fieldErrors && !stale ? [] : [message], fieldErrors: stale ? undefined : error.fieldErrors });
    return data<MoneyActionData>({ intent, result }, { status: error.status });
  }
}

/** A fresh idempotency key for a page's form (the loader makes one per render). */
export function newFormKey(): string {
  return crypto.randomUUID();
}
