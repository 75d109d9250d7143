/**
 * POST /profile/{id}/message: the «Написать» button of a public profile (issue 4 item 1). Opens
 * (creating it on first use) the personal conversation with member {id} and goes there; a
 * refusal — oneself, a block either way, an unknown member — goes back to the profile with the
 * reason in a toast. Works without JavaScript (a plain form and redirects). GET goes to the profile.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/start";
import { conversationHref } from "~/components/conversations/links";
import { getOrCreatePersonalConversation } from "~/domain/conversations/conversations.server";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError } from "~/lib/errors";
import { redirectWithToast } from "~/lib/toast.server";

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const viewer = await requireUser(context, request);
  try {
    await validateCsrf(request);
    const { id } = await getOrCreatePersonalConversation(context.db, viewer.id, Number(params.id));
    return redirect(conversationHref({ kind: "personal", id }));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return redirectWithToast(`/profile/${params.id}`, { title: "Не удалось начать беседу", description: error.message, variant: "destructive" });
  }
}
