/**
 * The forms of /profile/conversations, told apart by `intent` (issue 4 item 1): send, edit and
 * delete a message, mark the conversation read, create a group, invite, remove a member, leave.
 * The conversation is the one the form's address names (`?group={id}` or `?personal={id}`).
 *
 * The message form is multipart: a picture chosen in its `image` field goes with the message
 * (issue 14); server/index.js lets these posts carry up to 10 MB.
 *
 * A plain form post (no JavaScript) is answered with a redirect back to the conversation (a
 * toast for group changes); a refusal renders the page again with Conform's reply, so the
 * Russian message shows beside the form and nothing typed is lost. A fetcher (`via=fetcher`)
 * gets `{intent, ok, result, message}` as data, with the refusal's status.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { z } from "zod";
import type { ConversationActionData } from "~/components/conversations/action-data";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { CONVERSATIONS_PATH, conversationHref, messageAnchor, type ConversationAddress } from "~/components/conversations/links";
import { createGroupConversation, inviteToGroup, leaveGroup, removeFromGroup } from "~/domain/conversations/conversations.server";
import { deleteMessage, editMessage, markConversationRead, sendMessage } from "~/domain/conversations/messages.server";
import {
  CreateGroupSchema,
  DeleteMessageSchema,
  EditMessageSchema,
  InviteSchema,
  requireMessageContent,
  SendMessageFields,
} from "~/domain/conversations/schemas";
import type { MessageDto } from "~/domain/conversations/types";
import { requireUser } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, NotFound, pageData, retryAfterHeaders } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { getStorage } from "~/lib/storage/storage.server";
import { redirectWithToast, type FlashToast } from "~/lib/toast.server";
import { addressOf } from "./data.server";

const optionalId = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.coerce.number().int().positive().max(2_147_483_647).optional(),
);

/** Every form of the page; `intent` picks the change. */
export const ConversationActionSchema = z.discriminatedUnion("intent", [
  SendMessageFields.extend({ intent: z.literal("send") }).superRefine(requireMessageContent),
  EditMessageSchema.extend({ intent: z.literal("edit") }),
  DeleteMessageSchema.extend({ intent: z.literal("delete") }),
  z.object({ intent: z.literal("read"), upTo: optionalId }),
  CreateGroupSchema.extend({ intent: z.literal("create-group") }),
  InviteSchema.extend({ intent: z.literal("invite") }),
  z.object({ intent: z.literal("remove-member"), userId: z.coerce.number({ error: "Участник не найден" }).int().positive() }),
  z.object({ intent: z.literal("leave") }),
]);

export type ConversationIntent = z.infer<typeof ConversationActionSchema>["intent"];

export type { ConversationActionData };

interface Outcome {
  /** Where a plain form post goes next. */
  to: string;
  toast?: FlashToast;
  message?: MessageDto;
}

async function perform(
  ctx: AppContext,
  viewerId: number,
  address: ConversationAddress | null,
  input: z.infer<typeof ConversationActionSchema>,
): Promise<Outcome> {
  const { db } = ctx;
  if (input.intent === "create-group") {
    const group = await createGroupConversation(db, viewerId, { name: input.name });
    return { to: conversationHref({ kind: "group", id: group.id }), toast: { title: `Беседа «${group.name}» создана` } };
  }
  if (!address) throw new NotFound("Беседа не найдена", "conversation_not_found");
  const back = conversationHref(address);
  switch (input.intent) {
    case "send": {
      const image = input.image ? { bytes: new Uint8Array(await input.image.arrayBuffer()), storage: getStorage(ctx.config) } : null;
      const message = await sendMessage(db, viewerId, address.kind, address.id, { body: input.body ?? "", replyToId: input.replyToId ?? null, image });
      return { to: `${back}#${messageAnchor(message.id)}`, message };
    }
    case "edit": {
      const message = await editMessage(db, viewerId, input.messageId, input.body);
      return { to: `${back}#${messageAnchor(message.id)}`, message };
    }
    case "delete":
      await deleteMessage(db, viewerId, input.messageId, getStorage(ctx.config));
      return { to: back };
    case "read":
      await markConversationRead(db, viewerId, address.id, input.upTo);
      return { to: back };
    case "invite":
      await inviteToGroup(db, viewerId, address.id, input.username);
      return { to: back, toast: { title: `@${input.username} теперь в беседе` } };
    case "remove-member":
      await removeFromGroup(db, viewerId, address.id, input.userId);
      return { to: back, toast: { title: "Участник удалён из беседы" } };
    case "leave":
      await leaveGroup(db, viewerId, address.id);
      return { to: CONVERSATIONS_PATH, toast: { title: "Вы вышли из беседы" } };
  }
}

/** The page's action: see the module comment. CSRF is checked before anything changes. */
export async function runConversationAction(ctx: AppContext, request: Request) {
  const viewer = await requireUser(ctx, request);
  const formData = await pageData(() => readForm(request));
  const intent = String(formData.get("intent") ?? "");
  const submission = parseWithZod(formData, { schema: ConversationActionSchema });
  if (submission.status !== "success") {
    return data<ConversationActionData>({ intent, ok: false, result: submission.reply() }, { status: 400 });
  }
  try {
    const address = addressOf(new URL(request.url).searchParams);
    await validateCsrf(request);
    const outcome = await perform(ctx, viewer.id, address, submission.value);
    if (sentByFetcher(formData)) {
      return data<ConversationActionData>({ intent, ok: true, result: submission.reply({ resetForm: true }), message: outcome.message });
    }
    return outcome.toast ? redirectWithToast(outcome.to, outcome.toast) : redirect(outcome.to);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const result = submission.reply({ formErrors: error.fieldErrors ? [] : [error.message], fieldErrors: error.fieldErrors });
    return data<ConversationActionData>({ intent, ok: false, result }, { status: error.status, headers: retryAfterHeaders(error) });
  }
}
