/**
 * What /profile/conversations shows (issue 4 item 1): the member's conversations — the public
 * «Общий чат», their groups, their personal conversations — and, when the query names one
 * (`?group={id}` or `?personal={id}`), that conversation with a page of history (`before` for
 * older pages) and the message being answered (`reply`) or edited (`edit`) without JavaScript.
 * Opening a conversation marks read the messages it shows (the latest page; an older page marks nothing).
 */
import { getConversation, getPublicConversationId, listConversations } from "~/domain/conversations/conversations.server";
import { listMessages, markConversationRead } from "~/domain/conversations/messages.server";
import { onlineAmong } from "~/domain/conversations/presence.server";
import type { ConversationDetailDto, ConversationDto, MessageDto, MessageHistoryDto } from "~/domain/conversations/types";
import type { ConversationAddress } from "~/components/conversations/links";
import type { Db } from "~/db/client.server";
import { NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";

/** How many groups and personal conversations the list shows (the most recently active). */
export const LIST_SIZE = 50;

export type { ConversationAddress };

/** The conversation the query names: `group={id}` (also the public one) or `personal={id}`. */
export function addressOf(search: URLSearchParams): ConversationAddress | null {
  for (const kind of ["group", "personal"] as const) {
    const value = search.get(kind);
    if (value === null) continue;
    const id = /^\d{1,10}$/.test(value.trim()) ? Number(value) : NaN;
    if (!isValidId(id)) throw new NotFound("Беседа не найдена", "conversation_not_found");
    return { kind, id };
  }
  return null;
}

/** A positive id from the query, or undefined when absent or malformed. */
function idParam(search: URLSearchParams, name: string): number | undefined {
  const value = search.get(name);
  const id = value !== null && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return isValidId(id) ? id : undefined;
}

export interface OpenConversation {
  address: ConversationAddress;
  conversation: ConversationDetailDto;
  history: MessageHistoryDto;
  /** True when the history is an older page (`before`), not the latest messages. */
  olderPage: boolean;
  /** `reply={id}`: the message answered, when it is on this page. */
  replyTo: MessageDto | null;
  /** `edit={id}`: the viewer's own message being edited, when it is on this page. */
  editing: MessageDto | null;
}

export interface ConversationsPageData {
  viewerId: number;
  /** Members of the list and the open conversation connected to realtime now (docs/product/conversations.md#online). */
  online: number[];
  publicConversation: ConversationDto;
  groups: ConversationDto[];
  personal: ConversationDto[];
  open: OpenConversation | null;
}

/**
 * Loads the page for `viewerId`. Throws NotFound (`conversation_not_found`) when the query names
 * a conversation that does not exist or the viewer is not in (docs/product/engineering.md#private-resources-answer-404: someone else's is
 * not found). The open conversation is marked read up to the last message loaded (never for an
 * older `before` page) before the list is read, so its badge is gone.
 */
export async function loadConversationsPage(db: Db, viewerId: number, search: URLSearchParams): Promise<ConversationsPageData> {
  const address = addressOf(search);
  const publicId = await getPublicConversationId(db);
  let open: OpenConversation | null = null;
  if (address) {
    const before = idParam(search, "before");
    const [conversation, history] = await Promise.all([
      getConversation(db, viewerId, address.kind, address.id),
      listMessages(db, viewerId, address.kind, address.id, { before }),
    ]);
    // Read up to the last message shown, not the latest one now: a message committed since stays unread.
    // An older page shows nothing new.
    const lastShown = history.messages.at(-1);
    if (before === undefined && lastShown) await markConversationRead(db, viewerId, conversation.id, lastShown.id);
    const find = (id: number | undefined) => (id === undefined ? null : (history.messages.find((m) => m.id === id && !m.deleted) ?? null));
    const editing = find(idParam(search, "edit"));
    open = {
      address,
      conversation,
      history,
      olderPage: before !== undefined,
      replyTo: find(idParam(search, "reply")),
      editing: editing && editing.author.id === viewerId ? editing : null,
    };
  }
  const [publicConversation, groups, personal] = await Promise.all([
    open?.conversation.id === publicId ? open.conversation : getConversation(db, viewerId, "group", publicId),
    listConversations(db, viewerId, "group", { page: 1, perPage: LIST_SIZE }),
    listConversations(db, viewerId, "personal", { page: 1, perPage: LIST_SIZE }),
  ]);
  const shown = [...personal.items.flatMap((c) => (c.peer ? [c.peer.id] : [])), ...(open?.conversation.members.map((m) => m.id) ?? [])];
  const online = [
    ...(await onlineAmong(
      db,
      shown.filter((id) => id !== viewerId),
    )),
  ];
  return { viewerId, online, publicConversation: stripMembers(publicConversation), groups: groups.items, personal: personal.items, open };
}

/** The list needs no member lists. */
function stripMembers({ members: _members, ...conversation }: ConversationDetailDto): ConversationDto {
  return conversation;
}
