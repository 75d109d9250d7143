/**
 * What /chatgpt and /chatgpt/{id} share (issue 11): the page data (the member's conversations,
 * today's quota, whether the assistant is on) and the action of their forms — «send» waits for
 * the whole answer (the path without JavaScript; with it the page streams through
 * /api/assistant/messages instead), «rename», «delete».
 */
import type { AssistantPageData } from "~/domain/assistant/types";
import { deleteConversation, getConversation, listConversations, renameConversation } from "~/domain/assistant/conversations.server";
import { getUsage } from "~/domain/assistant/quota.server";
import { ConversationActionSchema } from "~/domain/assistant/schemas";
import { askAssistant } from "~/domain/assistant/turn.server";
import { requireUser } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { pageData } from "~/lib/errors";
import { runFormAction } from "~/routes/_shared/money-form.server";

/** The page data for the signed-in member; `conversationId` opens one of theirs (404 for anyone else's). */
export async function loadAssistantPage(ctx: AppContext, request: Request, conversationId?: number): Promise<AssistantPageData> {
  const user = await requireUser(ctx, request);
  const { assistant } = ctx.config;
  return pageData(async () => {
    const [conversations, usage, conversation] = await Promise.all([
      listConversations(ctx.db, user.id),
      getUsage(ctx.db, user.id, assistant.dailyQuota),
      conversationId === undefined ? null : getConversation(ctx.db, user.id, conversationId),
    ]);
    return { enabled: assistant.enabled, maxPromptChars: assistant.maxPromptChars, usage, conversations, conversation };
  });
}

/** The action of both pages; `conversationId` is the open conversation (none on /chatgpt). */
export async function runAssistantAction(ctx: AppContext, request: Request, conversationId?: number) {
  return runFormAction(ctx, request, {
    schema: ConversationActionSchema,
    async perform(actor, input) {
      switch (input.intent) {
        case "send": {
          const { conversationId: id } = await askAssistant(ctx.db, ctx.config.assistant, actor.id, { conversationId, content: input.content }, request.signal);
          return { redirectTo: `/chatgpt/${id}#last` };
        }
        case "rename":
          if (conversationId === undefined) return { redirectTo: "/chatgpt" };
          await renameConversation(ctx.db, actor.id, conversationId, input.title);
          return { toast: { title: "Разговор переименован" } };
        case "delete":
          if (conversationId !== undefined) await deleteConversation(ctx.db, actor.id, conversationId);
          return { toast: { title: "Разговор удалён" }, redirectTo: "/chatgpt" };
      }
    },
  });
}
