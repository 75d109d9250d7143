/**
 * /api/profile/conversation/personal/{id}/messages (docs/product/conversations.md#calls).
 * GET ?before&limit: `{success: true, data: MessageHistoryDto}`, the newest `limit` (default 30,
 * at most 100) messages below `before`, oldest first, with the cursor for the page above;
 * 400 `invalid_query` for a malformed before or limit.
 * POST JSON `{body, replyToId?}` (or form fields), CSRF token in the `X-CSRF-Token` header or the
 * `csrf` field: `{success: true, data: MessageDto}`; 403 `csrf_invalid`, 400 `invalid_input`,
 * 429 `rate_limited` (20 per 30 s), 403 `blocked` when either member blocked the other.
 * Both: 401 `unauthorized` for a visitor; 404 `conversation_not_found` for anyone else's or an unknown id.
 */
import type { Route } from "./+types/personal-messages";
import { listMessages, sendMessage } from "~/domain/conversations/messages.server";
import { apiData, requireApiUser } from "~/lib/api.server";
import { validateCsrfHeaderOrForm } from "~/lib/csrf.server";
import { handleApi } from "~/lib/errors";
import { historyQuery, readMessageInput } from "./http.server";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    return apiData(await listMessages(context.db, user.id, "personal", Number(params.id), historyQuery(request)));
  });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(context, request);
    await validateCsrfHeaderOrForm(request);
    const input = await readMessageInput(request);
    return apiData(await sendMessage(context.db, user.id, "personal", Number(params.id), input));
  });
}
