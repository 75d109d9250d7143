/**
 * One message of the open conversation: the author's avatar, the text, the time, the quote of
 * the message it answers, «изменено», or «Сообщение удалено». «Ответить» and (for one's own)
 * «Изменить» are links to `&reply=` / `&edit=` that work without JavaScript and switch the
 * composer in place with it; «Удалить» is a form, sent by a fetcher when JavaScript runs.
 */
import { CornerUpLeft, Pencil, Trash2 } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { Avatar } from "~/components/ui/avatar";
import type { MessageDto } from "~/domain/conversations/types";
import { cn } from "~/lib/utils";
import { conversationHref, messageAnchor, type ConversationAddress } from "./links";
import { asDeleted, formatMessageTime } from "./messages";

export const DELETED_TEXT = "Сообщение удалено";
/** A message a moderator deleted, and one hidden by reports from the reader (issue 10). */
export const MODERATED_TEXT = "Удалено модератором";
export const HIDDEN_TEXT = "Скрыто до решения модератора";

export interface MessageItemProps {
  message: MessageDto;
  address: ConversationAddress;
  mine: boolean;
  /** Show the author's name above the text (groups and the public conversation). */
  showAuthor: boolean;
  /** The message is on its way to the server (optimistic). */
  pending?: boolean;
  /** With JavaScript: answer or edit in place instead of following the link. */
  onReply?: (message: MessageDto) => void;
  onEdit?: (message: MessageDto) => void;
  /** The message the composer is answering or editing: highlighted. */
  active?: boolean;
}

/** One message (see the module comment); `pending` shows the optimistic copy of a message on its way. */
export function MessageItem({ message: original, address, mine, showAuthor, pending, onReply, onEdit, active }: MessageItemProps) {
  const remover = useFetcher({ key: `delete-message-${original.id}` });
  const message = remover.formData ? asDeleted(original) : original;
  const href = conversationHref(address);
  const canAct = !message.deleted && !pending;
  return (
    <li
      id={pending ? undefined : messageAnchor(message.id)}
      data-testid="message"
      data-message-id={pending ? undefined : message.id}
      data-pending={pending ? "" : undefined}
      className={cn("group flex scroll-mt-24 items-end gap-2", mine && "flex-row-reverse")}
    >
      {mine ? null : (
        <Avatar
          username={message.author.username}
          src={message.author.image}
          size="sm"
          link={`/profile/${message.author.id}`}
          className={canAct ? "mb-7" : undefined}
        />
      )}
      <div className={cn("flex max-w-[85%] min-w-0 flex-col gap-1 sm:max-w-[75%]", mine ? "items-end" : "items-start")}>
        <div
          className={cn(
            "min-w-0 rounded-2xl px-3.5 py-2 shadow-xs transition-colors",
            mine ? "rounded-br-md bg-primary text-primary-foreground" : "rounded-bl-md border border-border bg-card text-card-foreground",
            message.deleted && "border border-dashed border-border bg-transparent text-muted-foreground shadow-none",
            active && "ring-2 ring-ring ring-offset-2 ring-offset-background",
            pending && "opacity-70",
          )}
        >
          {showAuthor && !mine ? (
            <Link to={`/profile/${message.author.id}`} className="mb-0.5 block text-xs font-semibold text-primary hover:underline">
              {message.author.username}
            </Link>
          ) : null}
          {message.replyTo && !message.deleted ? (
            <a
              href={`#${messageAnchor(message.replyTo.id)}`}
              data-testid="message-quote"
              className={cn(
                "mb-1 block border-l-2 py-0.5 pl-2 text-xs",
                mine ? "border-primary-foreground/60 text-primary-foreground/85" : "border-primary text-muted-foreground",
              )}
            >
              <span className="font-semibold">{message.replyTo.author}</span>
              <span className="line-clamp-2 break-words">{message.replyTo.deleted ? DELETED_TEXT : message.replyTo.excerpt}</span>
            </a>
          ) : null}
          {message.deleted ? (
            <p className="text-sm italic">{message.moderated ? MODERATED_TEXT : DELETED_TEXT}</p>
          ) : message.hidden && message.body === "" ? (
            <p className="text-sm italic">{HIDDEN_TEXT}</p>
          ) : (
            <p data-testid="message-body" className="text-[15px] leading-snug break-words whitespace-pre-wrap">
              {message.body}
            </p>
          )}
          <p className={cn("mt-0.5 text-right text-[11px] leading-none", mine && !message.deleted ? "text-primary-foreground/75" : "text-muted-foreground")}>
            {message.editedAt && !message.deleted ? <span>изменено · </span> : null}
            {pending ? <span>отправляется…</span> : <time dateTime={message.createdAt}>{formatMessageTime(message.createdAt)}</time>}
          </p>
        </div>
        {canAct ? (
          <div className="flex items-center gap-0.5 text-xs text-muted-foreground transition-opacity md:opacity-0 md:group-hover:opacity-100 md:focus-within:opacity-100">
            <MessageAction
              to={conversationHref(address, { reply: message.id })}
              onClick={onReply ? () => onReply(message) : undefined}
              icon={<CornerUpLeft aria-hidden className="size-3.5" />}
              label="Ответить"
            />
            {mine ? (
              <>
                <MessageAction
                  to={conversationHref(address, { edit: message.id })}
                  onClick={onEdit ? () => onEdit(message) : undefined}
                  icon={<Pencil aria-hidden className="size-3.5" />}
                  label="Изменить"
                />
                <remover.Form method="post" action={href}>
                  <AuthenticityTokenInput />
                  <FetcherMarker />
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="messageId" value={message.id} />
                  <button type="submit" className="inline-flex items-center gap-1 rounded px-1.5 py-1 hover:bg-accent hover:text-destructive">
                    <Trash2 aria-hidden className="size-3.5" />
                    Удалить
                  </button>
                </remover.Form>
              </>
            ) : null}
          </div>
        ) : null}
      </div>
    </li>
  );
}

function MessageAction({ to, onClick, icon, label }: { to: string; onClick?: () => void; icon: React.ReactNode; label: string }) {
  return (
    <Link
      to={to}
      preventScrollReset
      onClick={
        onClick
          ? (event) => {
              event.preventDefault();
              onClick();
            }
          : undefined
      }
      className="inline-flex items-center gap-1 rounded px-1.5 py-1 hover:bg-accent hover:text-foreground"
    >
      {icon}
      {label}
    </Link>
  );
}
