/**
 * The left column of /profile/conversations: «Общий чат» first, then the member's groups and
 * personal conversations, each with its last message and unread badge (live, from the
 * realtime provider's counters), and the form that creates a group.
 */
import { ScrollArea } from "~/components/ui/scroll-area";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Globe, Plus, Users } from "lucide-react";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useUnread } from "~/components/realtime/realtime-provider";
import { formatUnreadCount } from "~/components/realtime/unread";
import { FormErrors } from "~/components/forms/form-errors";
import { Avatar, getInitials } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { IMAGE_EXCERPT } from "~/domain/conversations/excerpt";
import { CreateGroupSchema } from "~/domain/conversations/schemas";
import type { ConversationDto } from "~/domain/conversations/types";
import { cn } from "~/lib/utils";
import { conversationHref, type ConversationAddress } from "./links";
import { DELETED_TEXT, HIDDEN_TEXT, MODERATED_TEXT } from "./message-item";
import { formatListTime } from "./messages";
import { WithOnlineDot } from "./online-dot";
import { useReaderZone } from "./reader-zone";
import { isScammer, TrustHoverCard } from "~/components/users/trust-card";

/** The conversation list (see the module comment); `current` is highlighted, `formAction` receives the new-group form. */
export function ConversationList({
  publicConversation,
  groups,
  personal,
  current,
  viewerId,
  online = [],
  formAction,
  createGroupResult,
}: {
  publicConversation: ConversationDto;
  groups: ConversationDto[];
  personal: ConversationDto[];
  current: ConversationAddress | null;
  viewerId: number;
  /** Members connected to realtime when the page loaded (docs/product/conversations.md#online). */
  online?: number[];
  /** Where the create-group form posts (the page as it is, so a refusal keeps it). */
  formAction: string;
  createGroupResult?: SubmissionResult<string[]> | null;
}) {
  const isCurrent = (address: ConversationAddress) => current?.kind === address.kind && current.id === address.id;
  const item = (conversation: ConversationDto) => {
    const address: ConversationAddress = { kind: conversation.kind === "personal" ? "personal" : "group", id: conversation.id };
    return (
      <ConversationListItem
        key={`${address.kind}-${conversation.id}`}
        conversation={conversation}
        address={address}
        active={isCurrent(address)}
        viewerId={viewerId}
        peerOnline={conversation.peer ? online.includes(conversation.peer.id) : false}
      />
    );
  };
  return (
    <nav aria-label="Беседы" className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center justify-between gap-2 px-4 pt-4 pb-2">
        <h1 className="font-heading text-xl font-extrabold">Беседы</h1>
      </div>
      <ScrollArea className="min-h-0 flex-1" data-testid="conversation-scroll-area">
        <div className="px-2 pb-2">
          <ul className="flex flex-col gap-0.5">{item(publicConversation)}</ul>
          <ListSection title="Группы" empty="Вы пока не состоите в группах. Создайте свою ниже.">
            {groups.map(item)}
          </ListSection>
          <ListSection title="Личные" empty="Личных бесед пока нет. Откройте профиль участника и нажмите «Написать».">
            {personal.map(item)}
          </ListSection>
        </div>
      </ScrollArea>
      <CreateGroupForm action={formAction} lastResult={createGroupResult} />
    </nav>
  );
}

function ListSection({ title, empty, children }: { title: string; empty: string; children: React.ReactNode[] }) {
  return (
    <section className="mt-3">
      <h2 className="px-2 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h2>
      {children.length > 0 ? <ul className="flex flex-col gap-0.5">{children}</ul> : <p className="px-2 py-1 text-sm text-muted-foreground">{empty}</p>}
    </section>
  );
}

function ConversationListItem({
  conversation,
  address,
  active,
  viewerId,
  peerOnline,
}: {
  conversation: ConversationDto;
  address: ConversationAddress;
  active: boolean;
  viewerId: number;
  peerOnline: boolean;
}) {
  const unread = useUnread();
  const zone = useReaderZone();
  const count = active ? 0 : (unread?.of({ kind: address.kind, conversationId: conversation.id }) ?? conversation.unreadMessages);
  const last = conversation.lastMessage;
  const preview = last
    ? `${last.author.id === viewerId ? "Вы" : last.author.username}: ${last.deleted ? (last.moderated ? MODERATED_TEXT : DELETED_TEXT) : last.hidden && last.body === "" ? HIDDEN_TEXT : last.body || (last.image ? IMAGE_EXCERPT : "")}`
    : conversation.kind === "public"
      ? "Общий чат всех участников сайта"
      : "Сообщений пока нет";
  return (
    <li className="min-w-0">
      <Link
        to={conversationHref(address)}
        aria-current={active ? "page" : undefined}
        data-testid="conversation-link"
        data-unread={count}
        className={cn("flex items-center gap-3 rounded-lg px-2 py-2 transition-colors hover:bg-accent", active && "bg-accent text-accent-foreground")}
      >
        {conversation.peer ? (
          <WithOnlineDot userId={conversation.peer.id} initial={peerOnline}>
            {/* The card on hover, inside the row's link: the avatar itself links nowhere else (no nested links). */}
            <TrustHoverCard member={conversation.peer}>
              <ConversationAvatar conversation={conversation} />
            </TrustHoverCard>
          </WithOnlineDot>
        ) : (
          <ConversationAvatar conversation={conversation} />
        )}
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn("truncate text-sm font-semibold", count > 0 && "text-foreground")}>{conversation.name}</span>
            {last ? (
              <time dateTime={last.createdAt} className="ml-auto shrink-0 text-[11px] text-muted-foreground" suppressHydrationWarning>
                {formatListTime(last.createdAt, new Date(), zone)}
              </time>
            ) : null}
          </span>
          <span className="flex items-center gap-2">
            <span className={cn("truncate text-xs", count > 0 ? "font-medium text-foreground" : "text-muted-foreground")}>{preview}</span>
            {count > 0 ? (
              <span
                data-testid="conversation-unread"
                aria-label={`${formatUnreadCount(count)} непрочитанных`}
                className="ml-auto min-w-5 shrink-0 rounded-full bg-primary px-1.5 text-center text-[11px] leading-5 font-semibold text-primary-foreground"
              >
                {formatUnreadCount(count)}
              </span>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The picture of a conversation: the peer's avatar, a globe for the public one, initials for a group. */
export function ConversationAvatar({ conversation, className }: { conversation: ConversationDto; className?: string }) {
  if (conversation.kind === "personal" && conversation.peer) {
    const peer = conversation.peer;
    return <Avatar username={peer.username} src={peer.image} size="sm" className={className} overlay={isScammer(peer) ? "scam" : undefined} />;
  }
  return (
    <span
      aria-hidden
      className={cn(
        "inline-flex size-10 shrink-0 items-center justify-center rounded-full font-heading text-sm font-bold",
        conversation.kind === "public" ? "bg-primary text-primary-foreground" : "bg-secondary text-secondary-foreground",
        className,
      )}
    >
      {conversation.kind === "public" ? <Globe className="size-5" /> : conversation.name ? getInitials(conversation.name) : <Users className="size-5" />}
    </span>
  );
}

function CreateGroupForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: "create-group",
    lastResult,
    constraint: getZodConstraint(CreateGroupSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateGroupSchema }),
  });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="grid gap-2 border-t border-border p-3" data-testid="create-group">
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value="create-group" />
      <label htmlFor={fields.name.id} className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        Новая группа
      </label>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="flex gap-2">
        <Input {...getInputProps(fields.name, { type: "text" })} placeholder="Название беседы" autoComplete="off" className="flex-1" />
        <Button type="submit" size="icon" aria-label="Создать группу" title="Создать группу">
          <Plus aria-hidden />
        </Button>
      </div>
      <FieldErrors id={fields.name.errorId} errors={fields.name.errors} />
    </Form>
  );
}
