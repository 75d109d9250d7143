/**
 * One message of the open conversation: the author's avatar, its picture (issue 14: through the
 * image endpoint, at most 320 CSS px wide, a link to the full size in a new tab), the text, the time (in the
 * reader's zone after hydration), the quote of the message it answers, «изменено», or
 * «Сообщение удалено»; on one's own messages in a personal conversation, a double tick
 * «Прочитано» once the other member has read it. The actions («Ответить», «Изменить»,
 * «Удалить», «Пожаловаться») are in the «⋯» menu beside the bubble (message-actions.tsx): links
 * to `&reply=` / `&edit=` and forms that work without JavaScript.
 */
import { Icon } from "~/components/ui/icon";
import { useState } from "react";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { IMAGE_EXCERPT } from "~/domain/conversations/excerpt";
import { ModerationForm, useIsModerator } from "~/components/moderation/moderation-button";
import type { MessageDto, MessageImageDto } from "~/domain/conversations/types";
import { mentionSegments, type MentionRefDto } from "~/domain/mentions/plain-text";
import { imageSrcSet, optimizedImageUrl } from "~/lib/images/widths";
import { formatDateTimeIn, SERVER_TIME_ZONE } from "~/lib/format";
import { cn } from "~/lib/utils";
import { messageAnchor, type ConversationAddress } from "./links";
import { MessageActions, useLongPress } from "./message-actions";
import { asDeleted, formatMessageTime } from "./messages";
import { isScammer, MemberAvatar, MemberName } from "~/components/users/trust-card";

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
  /** The public conversation: moderators delete and restore its messages (docs/product/moderation.md#content-actions). */
  publicChat?: boolean;
  /** The zone times are shown in (reader-zone.ts); Moscow by default. */
  zone?: string;
  /**
   * One's own message in a personal conversation: true once the other member's read marker
   * reached it («Прочитано»), false while not; undefined elsewhere (nothing shown).
   */
  read?: boolean;
}

/** One message (see the module comment); `pending` shows the optimistic copy of a message on its way. */
export function MessageItem(props: MessageItemProps) {
  const { message: original, address, mine, showAuthor, pending, onReply, onEdit, active, publicChat, zone = SERVER_TIME_ZONE, read } = props;
  const moderates = useIsModerator() && publicChat === true && !pending;
  const remover = useFetcher({ key: `delete-message-${original.id}` });
  const message = remover.formData ? asDeleted(original) : original;
  const canAct = !message.deleted && !pending;
  const [menuSignal, setMenuSignal] = useState(0);
  const longPress = useLongPress(() => setMenuSignal((n) => n + 1));
  return (
    <li
      id={pending ? undefined : messageAnchor(message.id)}
      data-testid="message"
      data-message-id={pending ? undefined : message.id}
      data-pending={pending ? "" : undefined}
      className={cn("group flex scroll-mt-24 items-end gap-2", mine && "flex-row-reverse")}
    >
      {mine ? null : <MemberAvatar member={message.author} />}
      <div className={cn("flex max-w-[80%] min-w-0 flex-col gap-1 sm:max-w-[75%]", mine ? "items-end" : "items-start")}>
        <div
          {...(canAct ? longPress : {})}
          className={cn(
            "min-w-0 rounded-2xl px-3.5 py-2 transition-colors",
            mine ? "rounded-br-md" : "rounded-bl-md",
            // A deleted message is a dashed outline in either colour; otherwise one's own is filled in the primary colour.
            message.deleted
              ? "border border-dashed border-border bg-transparent text-muted-foreground"
              : mine
                ? "bg-primary text-primary-foreground shadow-xs"
                : "border border-border bg-card text-card-foreground shadow-xs",
            active && "ring-2 ring-ring ring-offset-2 ring-offset-background",
            pending && "opacity-70",
          )}
        >
          {showAuthor && !mine ? (
            <div className="mb-0.5 flex">
              <MemberName member={message.author} className={cn("text-xs", !isScammer(message.author) && "text-primary")} />
            </div>
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
          ) : message.hidden && message.body === "" && !message.image ? (
            <p className="text-sm italic">{HIDDEN_TEXT}</p>
          ) : (
            <>
              {message.image ? <MessagePicture image={message.image} author={message.author.username} spaced={message.body !== ""} /> : null}
              {message.body !== "" ? (
                <p data-testid="message-body" className="text-[15px] leading-snug break-words whitespace-pre-wrap">
                  <MessageText body={message.body} mentions={message.mentions} mine={mine} />
                </p>
              ) : pending ? (
                <p className="text-sm italic">{IMAGE_EXCERPT}</p>
              ) : null}
            </>
          )}
          <p className={cn("mt-0.5 text-right text-[11px] leading-none", mine && !message.deleted ? "text-primary-foreground/90" : "text-muted-foreground")}>
            {message.editedAt && !message.deleted ? <span>изменено · </span> : null}
            {pending ? (
              <span>отправляется…</span>
            ) : (
              <time
                dateTime={message.createdAt}
                title={zone === SERVER_TIME_ZONE ? `${formatDateTimeIn(message.createdAt, zone)} МСК` : formatDateTimeIn(message.createdAt, zone)}
                suppressHydrationWarning
              >
                {formatMessageTime(message.createdAt, zone)}
              </time>
            )}
            {read !== undefined && !message.deleted && !pending ? <ReadTick read={read} /> : null}
          </p>
        </div>
        {moderates && message.deleted && message.moderated ? (
          <ModerationForm intent="restore" type="message" id={message.id} variant="ghost" className="inline-flex">
            <Icon name="archive-restore" className="size-3.5" /> Восстановить
          </ModerationForm>
        ) : null}
      </div>
      {canAct ? (
        <MessageActions
          message={message}
          address={address}
          mine={mine}
          moderates={moderates}
          remover={remover}
          onReply={onReply}
          onEdit={onEdit}
          openSignal={menuSignal}
        />
      ) : null}
    </li>
  );
}

/** The widest a message's picture is shown, in CSS pixels; the tallest, so a long screenshot stays in view. */
const PICTURE_MAX_WIDTH = 320;
const PICTURE_MAX_HEIGHT = 400;

/**
 * A message's picture through the image endpoint (docs/product/interface.md#images): its width and
 * height attributes keep the place while it loads; the link opens the stored picture in a new tab.
 */
function MessagePicture({ image, author, spaced }: { image: MessageImageDto; author: string; spaced: boolean }) {
  const width = Math.max(1, Math.round(Math.min(PICTURE_MAX_WIDTH, image.width, (PICTURE_MAX_HEIGHT * image.width) / Math.max(1, image.height))));
  return (
    <a
      href={image.url}
      target="_blank"
      rel="noopener noreferrer"
      title="Открыть в полном размере"
      className={cn("-mx-1.5 block max-w-full overflow-hidden rounded-xl", spaced ? "mt-0.5 mb-1.5" : "my-0.5")}
      data-testid="message-image"
    >
      <img
        src={optimizedImageUrl(image.url, { width: PICTURE_MAX_WIDTH })}
        srcSet={imageSrcSet(image.url, PICTURE_MAX_WIDTH)}
        width={image.width}
        height={image.height}
        style={{ width }}
        alt={`Изображение от ${author}`}
        loading="lazy"
        decoding="async"
        className="block h-auto max-w-full rounded-xl bg-muted"
      />
      <span className="sr-only"> (открыть в полном размере в новой вкладке)</span>
    </a>
  );
}

/** docs/product/conversations.md#read-receipts: one tick «Доставлено», two «Прочитано». */
function ReadTick({ read }: { read: boolean }) {
  const label = read ? "Прочитано" : "Доставлено";
  return (
    <span data-testid="message-read" data-read={read ? "true" : "false"} title={label} className="ml-1 inline-flex items-center align-[-2px]">
      {read ? <Icon name="check-check" className="size-3.5" /> : <Icon name="check" className="size-3.5" />}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * A message's text with its resolved mentions as links to the members' profiles (public
 * conversation, docs/product/conversations.md#public-conversation). Every piece is a React text
 * node, so nothing in a message is ever read as markup.
 */
function MessageText({ body, mentions = [], mine }: { body: string; mentions?: MentionRefDto[]; mine: boolean }) {
  return mentionSegments(body, mentions).map((segment, index) =>
    "mention" in segment ? (
      <Link
        key={index}
        to={`/profile/${segment.mention.id}`}
        data-testid="message-mention"
        className={cn("font-medium underline-offset-2 hover:underline", mine ? "text-primary-foreground underline" : "text-primary")}
      >
        {segment.text}
      </Link>
    ) : (
      segment.text
    ),
  );
}
