/**
 * POST /moderation: a moderator's action on content (docs/product/moderation.md#content-actions):
 * `intent` delete or restore (`type` post, comment, wall_post, message; `id`), close or open a
 * post's comments, move it (`categoryId`), pin or unpin it on the home feed; `reason` optional.
 * Every control is a one-button form: without JavaScript it redirects back to `redirectTo` with
 * a toast, and a refusal shows the error page with its Russian message; a fetcher
 * (`via=fetcher`) gets `{ok: true, message}` or `{ok: false, code, message}` with the status.
 * A visitor is sent to sign in; members get 403 `not_moderator`. A refusal changes nothing.
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/content";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import type { Db } from "~/db/client.server";
import { deleteContent, movePost, restoreContent, setPostCommentsClosed, setPostPinned } from "~/domain/moderation/content.server";
import { ContentActionFormSchema } from "~/domain/moderation/schemas";
import { getOptionalUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData, retryAfterHeaders } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { parseForm } from "~/routes/_shared/form-target.server";
import { findCategory } from "~/domain/posts/categories";
import type { z } from "zod";

export async function loader() {
  return redirect("/");
}

/** Nothing renders here: the action redirects or answers data; a refusal without JavaScript shows the error page. */
export default function ModerationFormTarget() {
  return null;
}

type ContentAction = z.infer<typeof ContentActionFormSchema>;

const DELETED: Record<string, string> = { post: "Пост удалён", comment: "Комментарий удалён", wall_post: "Запись удалена", message: "Сообщение удалено" };
const RESTORED: Record<string, string> = {
  post: "Пост восстановлен",
  comment: "Комментарий восстановлен",
  wall_post: "Запись восстановлена",
  message: "Сообщение восстановлено",
};

/** Runs the action for moderator `actorId`; returns the Russian toast text. */
async function perform(db: Db, actorId: number, input: ContentAction): Promise<string> {
  const reason = { reason: input.reason ?? null };
  switch (input.intent) {
    case "delete":
      await deleteContent(db, actorId, { type: input.type, id: input.id }, reason);
      return DELETED[input.type]!;
    case "restore":
      await restoreContent(db, actorId, { type: input.type, id: input.id }, reason);
      return RESTORED[input.type]!;
    case "close":
      await setPostCommentsClosed(db, actorId, input.id, true, reason);
      return "Комментарии к посту закрыты";
    case "open":
      await setPostCommentsClosed(db, actorId, input.id, false, reason);
      return "Комментарии к посту открыты";
    case "move": {
      await movePost(db, actorId, input.id, input.categoryId, reason);
      return `Пост перенесён в раздел «${findCategory(input.categoryId)?.name ?? ""}»`;
    }
    case "pin":
      await setPostPinned(db, actorId, input.id, true, reason);
      return "Пост закреплён на главной";
    case "unpin":
      await setPostPinned(db, actorId, input.id, false, reason);
      return "Пост откреплён";
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await pageData(() => readForm(request));
  const back = safeRedirect(form.get("redirectTo"), "/");
  const actor = await getOptionalUser(context, request);
  if (!actor) return redirect(`/auth/login?redirect=${encodeURIComponent(back)}`);
  const js = sentByFetcher(form);
  try {
    await validateCsrf(request);
    const message = await perform(context.db, actor.id, parseForm(ContentActionFormSchema, form));
    if (js) return { ok: true as const, message };
    return redirectWithToast(back, { title: message });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (js) return data({ ok: false as const, code: error.code, message: error.message }, { status: error.status, headers: retryAfterHeaders(error) });
    throw new Response(error.message, { status: error.status, headers: { "Content-Type": "text/plain; charset=utf-8", ...retryAfterHeaders(error) } });
  }
}
