/**
 * A message's actions (docs/product/conversations.md#message-actions): «Ответить», and for
 * one's own «Изменить» and «Удалить»; for others' «Пожаловаться» (and a moderator's «Удалить»
 * in the public conversation). They sit in a «⋯» menu beside the bubble, not in a row under
 * every message: on a desktop the «⋯» shows while the pointer is over the message (or a key
 * focuses it), on a touch screen it stays visible and a long press on the bubble opens it too.
 * The menu is a `<details>` element, so without JavaScript it opens, its links lead to
 * `&reply=` / `&edit=` and its forms post; with JavaScript it closes on a choice, on Escape and
 * on a click elsewhere.
 */
import { Icon } from "~/components/ui/icon";
import { useCallback, useEffect, useRef, useState } from "react";
import { type FetcherWithComponents } from "react-router";
import { Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { ModerationForm } from "~/components/moderation/moderation-button";
import { ReportButton } from "~/components/moderation/report-button";
import type { MessageDto } from "~/domain/conversations/types";
import { cn } from "~/lib/utils";
import { conversationHref, type ConversationAddress } from "./links";

/** How long a finger rests on a bubble before its menu opens (ms). */
export const LONG_PRESS_MS = 500;

const itemBase = "flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none";
const itemClass = `${itemBase} text-popover-foreground`;

export interface MessageActionsProps {
  message: MessageDto;
  address: ConversationAddress;
  mine: boolean;
  /** A moderator in the public conversation. */
  moderates: boolean;
  /** The fetcher deleting the message (it shows deleted at once). */
  remover: FetcherWithComponents<unknown>;
  onReply?: (message: MessageDto) => void;
  onEdit?: (message: MessageDto) => void;
  /** Set by a long press on the bubble: the menu opens. */
  openSignal?: number;
}

/** The «⋯» menu of one message (see the module comment). */
export function MessageActions({ message, address, mine, moderates, remover, onReply, onEdit, openSignal }: MessageActionsProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => {
    if (menu.current) menu.current.open = false;
  }, []);

  useEffect(() => {
    if (openSignal && menu.current) menu.current.open = true;
  }, [openSignal]);

  // While open, a click elsewhere closes it (a dialog opened from it is inside).
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (menu.current && !menu.current.contains(event.target as Node)) close();
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open, close]);
  // Escape closes it and gives the focus back to «⋯» (a dialog opened from it handles its own).
  const onKeyDown = (event: React.KeyboardEvent<HTMLDetailsElement>) => {
    const details = event.currentTarget;
    if (event.key !== "Escape" || !details.open || details.querySelector("dialog[open]")) return;
    event.preventDefault();
    details.open = false;
    details.querySelector("summary")?.focus();
  };

  const choose = (handler?: (message: MessageDto) => void) =>
    handler
      ? (event: React.MouseEvent) => {
          event.preventDefault();
          close();
          handler(message);
        }
      : undefined;
  const hiddenFromReader = message.hidden && message.body === "";

  return (
    <details
      ref={menu}
      className="relative shrink-0 self-center"
      data-testid="message-menu"
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={onKeyDown}
    >
      <summary
        aria-label="Действия с сообщением"
        title="Действия"
        className={cn(
          "message-menu-trigger flex size-9 cursor-pointer pointer-coarse:size-11 list-none items-center justify-center rounded-full text-muted-foreground transition-opacity",
          "hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden",
        )}
      >
        <Icon name="ellipsis" className="size-5" />
      </summary>
      <div
        className={cn(
          "absolute bottom-full z-30 mb-1 grid w-48 gap-0.5 rounded-xl border border-border bg-popover p-1 shadow-lg",
          // Over the bubble, never past the list's edge: «⋯» is left of one's own bubbles, right of others'.
          mine ? "left-0" : "right-0",
        )}
      >
        <Link to={conversationHref(address, { reply: message.id })} preventScrollReset onClick={choose(onReply)} className={itemClass}>
          <Icon name="corner-up-left" className="size-4 text-muted-foreground" />
          Ответить
        </Link>
        {mine ? (
          <>
            <Link to={conversationHref(address, { edit: message.id })} preventScrollReset onClick={choose(onEdit)} className={itemClass}>
              <Icon name="pencil" className="size-4 text-muted-foreground" />
              Изменить
            </Link>
            <remover.Form method="post" action={conversationHref(address)}>
              <AuthenticityTokenInput />
              <FetcherMarker />
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="messageId" value={message.id} />
              <button type="submit" className={`${itemBase} text-destructive`}>
                <Icon name="trash-2" className="size-4" />
                Удалить
              </button>
            </remover.Form>
          </>
        ) : (
          <>
            {moderates ? (
              <ModerationForm intent="delete" type="message" id={message.id} variant="ghost" className="grid [&>button]:justify-start">
                <Icon name="shield-x" className="size-4" /> Удалить
              </ModerationForm>
            ) : null}
            {hiddenFromReader ? null : <ReportButton type="message" id={message.id} authorId={message.author.id} className="w-full justify-start" />}
          </>
        )}
      </div>
    </details>
  );
}

/**
 * Props for a bubble that opens its menu on a long press (touch and pen; a mouse has hover and
 * the right button). Calls `onLongPress` after LONG_PRESS_MS without moving or lifting.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<number | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancel, []);
  return {
    onPointerDown: (event: React.PointerEvent) => {
      if (event.pointerType === "mouse") return;
      fired.current = false;
      cancel();
      timer.current = window.setTimeout(() => {
        fired.current = true;
        onLongPress();
      }, LONG_PRESS_MS);
    },
    onPointerUp: cancel,
    onPointerMove: (event: React.PointerEvent) => {
      if (Math.abs(event.movementX) + Math.abs(event.movementY) > 6) cancel();
    },
    onPointerCancel: cancel,
    // The browser's own long-press menu would cover ours.
    onContextMenu: (event: React.MouseEvent) => {
      if (fired.current) event.preventDefault();
    },
  };
}
