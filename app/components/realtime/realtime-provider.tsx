/**
 * The signed-in member's live connection (docs/product/realtime.md, docs/product/notifications.md#unread-counting), mounted once in app/root.tsx:
 * - subscribes to `notifications` and, while a page asks for it, to a conversation channel;
 * - keeps the unread counters (docs/product/notifications.md#unread-counting; started from the root loader's figures, raised by
 *   frames, replaced whenever the root loader runs again);
 * - shows a toast for each incoming notification (a click goes to its link) and plays the
 *   private-chat sound at volume 0.5 for personal messages;
 * - prefixes the page title with «(N) », refreshed every 1000 ms.
 * A chat message for the conversation on screen neither toasts nor counts: it is read there.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useLocation } from "react-router";
import { toast } from "~/components/ui/use-toast";
import type { NotificationDto } from "~/domain/notifications/types";
import type { RealtimeFrame } from "~/lib/realtime/frames";
import type { RealtimeClient, RealtimeStatus, RealtimeTransport } from "./realtime-client";
import type { RealtimeRootData } from "./types";
import {
  chatConversationOf,
  chatUnreadTotal,
  initialUnreadState,
  sameConversation,
  titleWithUnread,
  unreadOf,
  unreadReducer,
  unreadTotal,
  type ConversationRef,
  type UnreadState,
} from "./unread";

/** docs/product/interface.md#page-titles: how often the title's unread prefix is refreshed (ms). */
export const TITLE_REFRESH_MS = 1000;

/** docs/product/notifications.md#toasts-and-sound: the private-chat sound and its volume. */
export const PRIVATE_CHAT_SOUND = { src: "/sounds/private-message.wav", volume: 0.5 } as const;

type FrameHandler = (data: unknown) => void;
type DescribeTarget = typeof import("~/domain/notifications/targets").describeTarget;

interface RealtimeContextValue {
  state: UnreadState;
  /** The conversation on screen (/profile/conversations?group= or ?personal=), if any. */
  open: ConversationRef | null;
  /** Receives `channel`'s frame data until the returned function is called. */
  listen(channel: string, handler: FrameHandler): () => void;
  /** Announces the member typing in the conversation of `channel` (docs/product/conversations.md#typing). */
  typing(channel: string): void;
  /** Members whose online state a presence frame told since the page loaded (docs/product/conversations.md#online). */
  presence: ReadonlyMap<number, boolean>;
}

const RealtimeContext = createContext<RealtimeContextValue | null>(null);

/** The conversation a URL shows, or null. */
export function openConversationOf(pathname: string, search: string): ConversationRef | null {
  if (pathname.replace(/\/$/, "") !== "/profile/conversations") return null;
  const params = new URLSearchParams(search);
  for (const kind of ["group", "personal"] as const) {
    const value = params.get(kind);
    if (value && /^[1-9]\d{0,9}$/.test(value)) return { kind, conversationId: Number(value) };
  }
  return null;
}

function playPrivateChatSound() {
  try {
    const audio = new Audio(PRIVATE_CHAT_SOUND.src);
    audio.volume = PRIVATE_CHAT_SOUND.volume;
    // Browsers refuse to play before the member interacted with the page: stay silent then.
    void audio.play().catch(() => {});
  } catch {
    // No audio support: nothing to play.
  }
}

/** The live connection and unread counters of the signed-in member described by `config` (see the module comment). */
export function RealtimeProvider({ config, children }: { config: RealtimeRootData; children: React.ReactNode }) {
  const location = useLocation();
  const open = useMemo(() => openConversationOf(location.pathname, location.search), [location.pathname, location.search]);
  const [state, dispatch] = useReducer(unreadReducer, config, (c) => initialUnreadState(c.notifications, c.unread));
  const [status, setStatus] = useState<{ status: RealtimeStatus; transport: RealtimeTransport }>({ status: "connecting", transport: config.transport });
  const [subscribed, setSubscribed] = useState<string[]>([]);
  const [presence, setPresence] = useState<ReadonlyMap<number, boolean>>(new Map());

  // The root loader ran again: its figures are exact, and the conversation on screen is read.
  const openKey = open ? `${open.kind}:${open.conversationId}` : "";
  useEffect(() => {
    dispatch({ type: "reset", notifications: config.notifications, record: config.unread });
  }, [config.notifications, config.unread]);
  const openRef = useRef(open);
  openRef.current = open;
  // `openKey` names the open conversation; the record changes whenever the root loader ran again.
  useEffect(() => {
    if (openRef.current) dispatch({ type: "conversationRead", conversation: openRef.current });
  }, [openKey, config.unread]);

  const listeners = useRef(new Map<string, Set<FrameHandler>>());
  const clientRef = useRef<RealtimeClient | null>(null);

  // `describeTarget` arrives with the client's code (see the effect below).
  const onNotification = useCallback((notification: NotificationDto, describeTarget: DescribeTarget) => {
    const current = openRef.current;
    dispatch({ type: "notification", notification, open: current });
    const chat = chatConversationOf(notification);
    if (chat && sameConversation(chat, current)) return;
    // A mention in the public conversation the member is reading: counted, but no toast over it.
    const mention = notification.publicMessage ? { kind: "group" as const, conversationId: notification.publicMessage.conversationId } : null;
    if (sameConversation(mention, current)) return;
    // The toast names what it is about (docs/product/notifications.md#targets) when it is about a post, comment, entry or message.
    toast({ title: notification.title, description: describeTarget(notification.target ?? null) ?? notification.description, url: notification.url });
    if (chat?.kind === "personal") playPrivateChatSound();
  }, []);

  useEffect(() => {
    // The client's code (and the toasts' wording) is asked for only here, so a visitor's pages never
    // load it (decision 0040); a failed load is AppUpdates' chunk error (a reload).
    let closed = false;
    let client: RealtimeClient | null = null;
    void Promise.all([import("./realtime-client"), import("~/domain/notifications/targets")]).then(([{ RealtimeClient }, { describeTarget }]) => {
      if (closed) return;
      client = new RealtimeClient({
        apiToken: config.apiToken,
        transport: config.transport,
        ssePath: config.ssePath,
        onStatus: (next, transport) => setStatus({ status: next, transport }),
        onFrame: (frame: RealtimeFrame) => {
          if (frame.channel === "notifications") {
            if (isPresenceFrame(frame.data)) {
              const { userId, online } = frame.data;
              return setPresence((map) => new Map(map).set(userId, online));
            }
            return onNotification(frame.data as NotificationDto, describeTarget);
          }
          if (frame.channel === "system") {
            const data = frame.data as { type?: string; channel?: string };
            if (data.type === "subscribed" && data.channel) setSubscribed((list) => (list.includes(data.channel!) ? list : [...list, data.channel!]));
            if (data.type === "unsubscribed" && data.channel) setSubscribed((list) => list.filter((c) => c !== data.channel));
            return;
          }
          for (const handler of listeners.current.get(frame.channel) ?? []) handler(frame.data);
        },
      });
      client.subscribe("notifications");
      // Channels pages asked for while the code was loading.
      for (const channel of listeners.current.keys()) client.subscribe(channel);
      clientRef.current = client;
      client.start();
    });
    return () => {
      closed = true;
      clientRef.current = null;
      client?.close();
      setSubscribed([]);
    };
  }, [config.apiToken, config.transport, config.ssePath, onNotification]);

  const listen = useCallback((channel: string, handler: FrameHandler) => {
    const map = listeners.current;
    const set = map.get(channel) ?? new Set();
    map.set(channel, set);
    set.add(handler);
    if (set.size === 1) clientRef.current?.subscribe(channel);
    return () => {
      set.delete(handler);
      if (set.size > 0) return;
      map.delete(channel);
      clientRef.current?.unsubscribe(channel);
      setSubscribed((list) => list.filter((c) => c !== channel));
    };
  }, []);

  const typing = useCallback((channel: string) => clientRef.current?.typing(channel), []);

  useUnreadTitle(unreadTotal(state, open));

  const value = useMemo(() => ({ state, open, listen, typing, presence }), [state, open, listen, typing, presence]);
  return (
    <RealtimeContext.Provider value={value}>
      {children}
      {/* Diagnostics for people and tests: which transport runs and what it receives. */}
      <span hidden data-testid="realtime-status" data-status={status.status} data-transport={status.transport} data-channels={subscribed.join(" ")} />
    </RealtimeContext.Provider>
  );
}

/** docs/product/interface.md#page-titles: the title shows «(N) » with the unread total, refreshed every 1000 ms. */
function useUnreadTitle(total: number) {
  const totalRef = useRef(total);
  totalRef.current = total;
  const apply = useCallback(() => {
    const next = titleWithUnread(document.title, totalRef.current);
    if (next !== document.title) document.title = next;
  }, []);
  useEffect(apply, [total, apply]);
  useEffect(() => {
    const timer = window.setInterval(apply, TITLE_REFRESH_MS);
    return () => {
      window.clearInterval(timer);
      document.title = titleWithUnread(document.title, 0);
    };
  }, [apply]);
}

/**
 * The unread figures for badges: the notification count, the chat total, a conversation's own
 * counter. Null without a signed-in member (no provider).
 */
export function useUnread() {
  const context = useContext(RealtimeContext);
  if (!context) return null;
  const { state, open } = context;
  return {
    notifications: state.notifications,
    chats: chatUnreadTotal(state, open),
    total: unreadTotal(state, open),
    of: (conversation: ConversationRef) => (sameConversation(conversation, open) ? 0 : unreadOf(state, conversation)),
  };
}

/** A `presence` frame on the notifications channel (docs/product/conversations.md#online), not a notification. */
function isPresenceFrame(data: unknown): data is { type: "presence"; userId: number; online: boolean } {
  if (typeof data !== "object" || data === null) return false;
  const frame = data as { type?: unknown; userId?: unknown; online?: unknown };
  return frame.type === "presence" && typeof frame.userId === "number" && typeof frame.online === "boolean";
}

/**
 * Whether member `userId` is connected to realtime now (docs/product/conversations.md#online):
 * the latest presence frame about them, else `initial` (what the page's loader read).
 */
export function useOnline(userId: number | null | undefined, initial: boolean): boolean {
  const presence = useContext(RealtimeContext)?.presence;
  if (userId === null || userId === undefined) return false;
  return presence?.get(userId) ?? initial;
}

/** Sends a typing frame on `channel` (docs/product/conversations.md#typing); does nothing without a live connection. */
export function useTypingSender(): (channel: string) => void {
  const typing = useContext(RealtimeContext)?.typing;
  return useCallback((channel: string) => typing?.(channel), [typing]);
}

/**
 * Calls `handler` with the data of every frame on `channel` (null: none) while the component
 * is mounted; the latest `handler` is used without resubscribing.
 */
export function useRealtimeChannel(channel: string | null, handler: FrameHandler) {
  const context = useContext(RealtimeContext);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const listen = context?.listen;
  useEffect(() => {
    if (!channel || !listen) return;
    return listen(channel, (data) => handlerRef.current(data));
  }, [channel, listen]);
}
