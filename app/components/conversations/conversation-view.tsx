/**
 * The open conversation (issue 4 item 1): its header (name; members for groups), the history
 * loaded upwards («Загрузить предыдущие»: a link without JavaScript, a fetcher that prepends
 * the older page with it), and the composer. With JavaScript the conversation's channel brings
 * new, edited and deleted messages live (one's own message, already shown, is kept once by
 * id), and incoming messages are marked read as they arrive (at most once a second).
 *
 * The message list scrolls in `flex-col-reverse`: it opens at the newest message even without
 * JavaScript, stays there as messages arrive, and keeps its place when older pages are prepended.
 * A reader scrolled up keeps their place by the browser's scroll anchoring, which must anchor on a
 * message: the «Загрузить предыдущие» row and the sticky day titles opt out (`overflow-anchor:
 * none`), or an older page joining the day on screen kept the link in place and threw the reader
 * to the top of the new page. Anchoring stays on for the list itself, or a message arriving below
 * would move what the reader is reading.
 */
import { ChevronUp, Loader2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { conversationChannel } from "~/lib/realtime/frames";
import { useRealtimeChannel, useTypingSender } from "~/components/realtime/realtime-provider";
import { VIA_FETCHER } from "~/components/forms/fetcher-marker";
import { messageExcerpt } from "~/domain/conversations/excerpt";
import type { ConversationDetailDto, MessageDto, MessageHistoryDto } from "~/domain/conversations/types";
import type { ConversationActionData } from "./action-data";
import { ConversationHeader } from "./conversation-header";
import { GroupMembers } from "./group-members";
import { conversationHref, type ConversationAddress } from "./links";
import { MessageComposer } from "./message-composer";
import { MessageItem } from "./message-item";
import { applyFrame, dayTitle, forgetRestored, groupByDay, isConversationFrame, isReadFrame, mergeMessages, trackRestored, withRestored } from "./messages";
import { createReadMarker } from "./read-marker";
import { useReaderZone } from "./reader-zone";
import { addTypist, createTypingThrottle, expireTypists, isTypingFrame, removeTypist, typingText, type Typists } from "./typing";
import { isScammer, ScamWarning } from "~/components/users/trust-card";

export interface ConversationViewProps {
  address: ConversationAddress;
  conversation: ConversationDetailDto;
  history: MessageHistoryDto;
  /** The history is an older page (`before`) reached without JavaScript. */
  olderPage: boolean;
  replyTo: MessageDto | null;
  editing: MessageDto | null;
  viewerId: number;
  /** The other member of a personal conversation was connected to realtime when the page loaded (docs/product/conversations.md#online). */
  peerOnline?: boolean;
  /** A refused form after a plain post (no JavaScript). */
  actionData?: ConversationActionData | null;
}

/** What a fetcher loading an older page reads from the page's loader. */
interface OlderPageData {
  open: { history: MessageHistoryDto } | null;
}

/** The open conversation (see the module comment) as `viewerId` sees it. */
export function ConversationView(props: ConversationViewProps) {
  const { address, conversation, history, olderPage, replyTo, editing, viewerId, peerOnline = false, actionData } = props;
  const hydrated = useHydrated();
  const zone = useReaderZone();
  const href = conversationHref(address);
  const csrf = useAuthenticityToken();
  const sender = useFetcher<ConversationActionData>({ key: `send-${address.kind}-${address.id}` });
  const reader = useFetcher({ key: `read-${address.kind}-${address.id}` });
  const olderLoader = useFetcher<OlderPageData>();

  // Every page the loader gave since the conversation opened: a revalidation after a send
  // brings the latest messages only, and those that slid out of it must not vanish.
  const [seen, setSeen] = useState<MessageDto[]>(history.messages);
  const [firstBefore] = useState(history.before);
  useEffect(() => setSeen((list) => mergeMessages(list, history.messages)), [history.messages]);
  const [restored, setRestored] = useState<ReadonlyMap<number, MessageDto>>(new Map());
  const [older, setOlder] = useState<MessageDto[]>([]);
  const [olderCursor, setOlderCursor] = useState<number | null | undefined>(undefined);
  const [live, setLive] = useState<MessageDto[]>([]);
  const [replyingTo, setReplyingTo] = useState<MessageDto | null>(replyTo);
  const [editingMessage, setEditingMessage] = useState<MessageDto | null>(editing);
  const scroller = useRef<HTMLDivElement>(null);
  /** How many of one's own messages with the text being sent the list held when it left. */
  const sentBefore = useRef(0);

  // An older page arrived: prepend it (the reversed list keeps the reader's place).
  const olderPageData = olderLoader.data?.open?.history;
  useEffect(() => {
    if (!olderPageData) return;
    setOlder((list) => mergeMessages(olderPageData.messages, list));
    setOlderCursor(olderPageData.before);
  }, [olderPageData]);

  // Sent or edited messages come back from the action: show them by id (the frame may follow).
  const saved = sender.data?.ok ? sender.data.message : undefined;
  useEffect(() => {
    if (!saved) return;
    setLive((list) => mergeMessages(list, [saved]));
    setReplyingTo(null);
    setEditingMessage(null);
  }, [saved]);

  const messages = useMemo(() => withRestored(mergeMessages(older, seen, history.messages, live), restored), [older, seen, history.messages, live, restored]);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  // Messages a moderator restored, from the loader's fresh page or a frame (merging alone keeps them deleted).
  useEffect(() => setRestored((map) => trackRestored(map, messagesRef.current, history.messages)), [history.messages]);

  // Incoming messages are marked read at most once a second (read-marker.ts); what is still
  // waiting goes out when the conversation is left. The public conversation keeps no markers.
  const submitRead = useRef<(upTo: number) => void>(() => {});
  submitRead.current = (upTo: number) => {
    void reader.submit({ intent: "read", upTo: String(upTo), csrf, [VIA_FETCHER.name]: VIA_FETCHER.value }, { method: "post", action: href });
  };
  const [readMarker] = useState(() => createReadMarker((upTo) => submitRead.current(upTo)));
  useEffect(() => () => readMarker.flush(), [readMarker]);
  const markRead = (upTo: number) => {
    if (conversation.kind !== "public") readMarker.mark(upTo);
  };

  // docs/product/conversations.md#typing: who is typing, each name for 5 s after its last frame.
  const channel = conversationChannel(address.kind, address.id);
  const [typists, setTypists] = useState<Typists>(new Map());
  useEffect(() => {
    if (typists.size === 0) return;
    const soonest = Math.min(...[...typists.values()].map((t) => t.until));
    const timer = window.setTimeout(() => setTypists((map) => expireTypists(map, Date.now())), Math.max(0, soonest - Date.now()) + 50);
    return () => window.clearTimeout(timer);
  }, [typists]);
  const sendTyping = useTypingSender();
  const typingThrottle = useMemo(() => createTypingThrottle(() => sendTyping(channel)), [sendTyping, channel]);

  // docs/product/conversations.md#read-receipts: how far the other member of a personal conversation read.
  const [peerRead, setPeerRead] = useState(conversation.peerReadUpTo ?? 0);
  useEffect(() => setPeerRead((upTo) => Math.max(upTo, conversation.peerReadUpTo ?? 0)), [conversation.peerReadUpTo]);

  useRealtimeChannel(channel, (data) => {
    if (isReadFrame(data)) {
      if (data.userId !== viewerId) setPeerRead((upTo) => Math.max(upTo, data.upTo));
      return;
    }
    if (isTypingFrame(data)) {
      if (data.user.id !== viewerId) setTypists((map) => addTypist(map, data.user, Date.now()));
      return;
    }
    if (!isConversationFrame(data)) return;
    if (data.type === "message.created" && data.message.author.id !== viewerId) {
      setTypists((map) => removeTypist(map, data.message.author.id));
      // Sending moves the author's own read marker: they have read everything before their message.
      setPeerRead((upTo) => Math.max(upTo, data.message.id));
    }
    // An older page reached without JavaScript shows no newer messages to append to.
    if (olderPage && data.type === "message.created") return;
    setLive((list) => applyFrame(list, messagesRef.current, data));
    if (data.type === "message.updated") setRestored((map) => trackRestored(map, messagesRef.current, [data.message]));
    else if (data.type === "message.deleted") setRestored((map) => forgetRestored(map, data.messageId));
    if (data.type === "message.created" && data.message.author.id !== viewerId) markRead(data.message.id);
  });

  // The optimistic message: the text on its way, until its saved copy is in the list.
  const pendingBody = sender.formData?.get("intent") === "send" ? String(sender.formData.get("body") ?? "").trim() : "";
  const pendingFile = sender.formData?.get("intent") === "send" ? sender.formData.get("image") : null;
  // A picture on its way (issue 14): the optimistic message says so until the saved one shows it.
  const pendingImage = pendingFile instanceof File && pendingFile.size > 0;
  const pendingReplyId = Number(sender.formData?.get("replyToId") ?? 0);
  // Saved once the list holds one more of one's own messages with this text than when it left
  // (from the action's answer or from the realtime frame, whichever came first).
  const pendingSaved = (pendingBody !== "" || pendingImage) && countMine(messages, viewerId, pendingBody) > sentBefore.current;
  const pending: MessageDto | null =
    (pendingBody || pendingImage) && !pendingSaved
      ? {
          id: Number.MAX_SAFE_INTEGER,
          conversationId: conversation.id,
          author: { id: viewerId, username: "", displayName: null, image: null, ranks: [] },
          body: pendingBody,
          image: null,
          replyTo: replyQuote(messages.find((m) => m.id === pendingReplyId)),
          createdAt: new Date().toISOString(),
          editedAt: null,
          deleted: false,
          moderated: false,
          hidden: false,
          mentions: [],
        }
      : null;
  // An edit shows its new text at once too.
  const pendingEdit =
    sender.formData?.get("intent") === "edit" ? { id: Number(sender.formData.get("messageId")), body: String(sender.formData.get("body") ?? "").trim() } : null;
  const shown = pendingEdit
    ? messages.map((m) =>
        m.id === pendingEdit.id && pendingEdit.body ? { ...m, body: pendingEdit.body, editedAt: m.editedAt ?? new Date().toISOString() } : m,
      )
    : messages;

  const cursor = olderCursor === undefined ? firstBefore : olderCursor;
  const loadingOlder = olderLoader.state !== "idle";
  const composerResult = actionData && (actionData.intent === "send" || actionData.intent === "edit") ? actionData.result : null;
  const showAuthor = conversation.kind !== "personal";
  const receipts = conversation.kind === "personal";

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="conversation" data-conversation-id={conversation.id}>
      <ConversationHeader conversation={conversation} peerOnline={peerOnline} />
      {conversation.kind === "personal" && conversation.peer && isScammer(conversation.peer) ? (
        // docs/product/interface.md#trust-card: a SCAMMER's personal chat opens with the warning.
        <ScamWarning username={conversation.peer.username} className="m-3 sm:mx-4" />
      ) : null}
      {conversation.kind === "group" ? (
        <GroupMembers
          conversation={conversation}
          address={address}
          viewerId={viewerId}
          lastResult={actionData?.intent === "invite" ? actionData.result : null}
        />
      ) : null}
      <div className="relative flex min-h-0 flex-1 flex-col">
        <div ref={scroller} className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto overscroll-contain bg-muted/20" data-testid="message-scroller">
          <div className="flex flex-col gap-1 px-3 py-4 sm:px-5">
            {cursor !== null ? (
              <div className="flex justify-center pb-2 [overflow-anchor:none]">
                <Link
                  to={conversationHref(address, { before: cursor })}
                  preventScrollReset
                  onClick={(event) => {
                    if (!hydrated) return;
                    event.preventDefault();
                    if (!loadingOlder) void olderLoader.load(conversationHref(address, { before: cursor }));
                  }}
                  className="inline-flex items-center gap-1.5 rounded-full border border-border bg-background px-3 py-1 text-xs font-medium text-muted-foreground shadow-xs hover:text-foreground"
                >
                  {loadingOlder ? <Loader2 aria-hidden className="size-3.5 animate-spin" /> : <ChevronUp aria-hidden className="size-3.5" />}
                  Загрузить предыдущие
                </Link>
              </div>
            ) : messages.length > 0 ? (
              <p className="pb-2 text-center text-xs text-muted-foreground">Начало беседы</p>
            ) : null}
            {shown.length === 0 && !pending ? (
              <div className="flex flex-col items-center gap-2 py-16 text-center text-muted-foreground">
                <p className="font-medium text-foreground">Сообщений пока нет</p>
                <p className="text-sm">Напишите первым — собеседники увидят сообщение сразу.</p>
              </div>
            ) : null}
            {groupByDay(shown, zone).map((day) => (
              <section key={day.day} aria-label={dayTitle(day.day, new Date(), zone)} className="flex flex-col gap-1">
                <div className="sticky top-0 z-10 flex justify-center py-2 [overflow-anchor:none]">
                  <span className="rounded-full bg-background/90 px-3 py-0.5 text-[11px] font-medium text-muted-foreground shadow-xs backdrop-blur">
                    {dayTitle(day.day, new Date(), zone)}
                  </span>
                </div>
                <ol className="flex flex-col gap-2">
                  {day.messages.map((message) => (
                    <MessageItem
                      key={message.id}
                      message={message}
                      address={address}
                      mine={message.author.id === viewerId}
                      showAuthor={showAuthor}
                      publicChat={conversation.kind === "public"}
                      zone={zone}
                      read={receipts && message.author.id === viewerId ? message.id <= peerRead : undefined}
                      active={message.id === (editingMessage ?? replyingTo)?.id}
                      onReply={hydrated ? (m) => (setEditingMessage(null), setReplyingTo(m)) : undefined}
                      onEdit={hydrated ? (m) => (setReplyingTo(null), setEditingMessage(m)) : undefined}
                    />
                  ))}
                </ol>
              </section>
            ))}
            {pending ? (
              <ol className="flex flex-col gap-2 pt-2">
                <MessageItem message={pending} address={address} mine showAuthor={false} pending />
              </ol>
            ) : null}
            {olderPage ? (
              <div className="flex justify-center pt-3">
                <Link to={href} className="rounded-full bg-primary px-3 py-1 text-xs font-medium text-primary-foreground">
                  К последним сообщениям
                </Link>
              </div>
            ) : null}
          </div>
        </div>
        <TypingIndicator names={[...typists.values()].map((t) => t.username)} />
      </div>
      <MessageComposer
        onTyping={hydrated ? () => typingThrottle.typed() : undefined}
        key={editingMessage ? `edit-${editingMessage.id}` : "send"}
        address={address}
        fetcher={hydrated ? sender : undefined}
        replyTo={replyingTo}
        editing={editingMessage}
        onCancel={hydrated ? () => (setReplyingTo(null), setEditingMessage(null)) : undefined}
        lastResult={composerResult}
        onSending={(body) => {
          typingThrottle.reset();
          sentBefore.current = countMine(messagesRef.current, viewerId, body);
          scroller.current?.scrollTo({ top: 0, behavior: "smooth" });
        }}
      />
    </div>
  );
}

/** «Иван печатает…» under the last message, above the composer, announced politely to screen readers. */
function TypingIndicator({ names }: { names: string[] }) {
  const text = typingText(names);
  return (
    <div aria-live="polite" className="bg-muted/20 px-3 sm:px-5">
      {text ? (
        <p data-testid="typing" className="flex items-center gap-2 pb-1.5 text-xs text-muted-foreground">
          <span aria-hidden className="flex gap-0.5">
            <span className="size-1.5 animate-bounce rounded-full bg-primary [animation-delay:-0.3s]" />
            <span className="size-1.5 animate-bounce rounded-full bg-primary [animation-delay:-0.15s]" />
            <span className="size-1.5 animate-bounce rounded-full bg-primary" />
          </span>
          {text}
        </p>
      ) : null}
    </div>
  );
}

function countMine(messages: readonly MessageDto[], viewerId: number, body: string): number {
  return messages.filter((m) => m.author.id === viewerId && !m.deleted && m.body === body).length;
}

function replyQuote(message: MessageDto | undefined): MessageDto["replyTo"] {
  if (!message) return null;
  return {
    id: message.id,
    author: message.author.username,
    excerpt: message.deleted ? "" : messageExcerpt(message.body, message.image !== null),
    deleted: message.deleted,
  };
}
