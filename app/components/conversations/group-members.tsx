/**
 * The members of a group conversation (docs/product/conversations.md#group-conversations): who is in it, and for the
 * owner an invitation by username and a «Удалить» beside each member; everyone may leave.
 * A <details> panel, so it opens without JavaScript; invitations and removals go through
 * fetchers when JavaScript runs (the list revalidates in place), leaving navigates to the list.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Crown, LogOut, UserMinus, UserPlus, Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { FormErrors } from "~/components/forms/form-errors";
import { Button } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { InviteSchema } from "~/domain/conversations/schemas";
import { CHAT_LIMITS, type ConversationDetailDto } from "~/domain/conversations/types";
import { formatCount, plural } from "~/lib/format";
import type { ConversationActionData } from "./action-data";
import { conversationHref, type ConversationAddress } from "./links";
import { MemberAvatar } from "~/components/users/trust-card";

/** «1 участник», «3 участника», «12 участников». */
export function membersLabel(count: number): string {
  return `${formatCount(count)} ${plural(count, ["участник", "участника", "участников"])}`;
}

/** The members panel of group `conversation` as `viewerId` sees it (see the module comment). */
export function GroupMembers({
  conversation,
  address,
  viewerId,
  lastResult,
}: {
  conversation: ConversationDetailDto;
  address: ConversationAddress;
  viewerId: number;
  /** A refused invitation after a plain form post. */
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const isOwner = conversation.ownerId === viewerId;
  const action = conversationHref(address);
  return (
    <details className="group/members border-b border-border bg-muted/30" data-testid="group-members" open={Boolean(lastResult) || undefined}>
      <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-2 text-sm text-muted-foreground hover:text-foreground [&::-webkit-details-marker]:hidden">
        <Users aria-hidden className="size-4" />
        <span>Участники</span>
        <span className="ml-auto text-xs group-open/members:hidden">показать</span>
        <span className="ml-auto hidden text-xs group-open/members:inline">скрыть</span>
      </summary>
      <div className="grid gap-3 px-4 pb-4">
        <ul className="grid gap-1">
          {conversation.members.map((member) => (
            <li key={member.id} className="flex items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-accent/60" data-testid="group-member">
              <MemberAvatar member={member} />
              <Link to={`/profile/${member.id}`} className="min-w-0 flex-1 truncate text-sm font-medium hover:underline">
                {member.username}
                {member.id === viewerId ? <span className="text-muted-foreground"> (вы)</span> : null}
              </Link>
              {member.id === conversation.ownerId ? (
                <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                  <Crown aria-hidden className="size-3.5 text-warning" /> владелец
                </span>
              ) : null}
              {isOwner && member.id !== viewerId ? <RemoveMember action={action} userId={member.id} username={member.username} /> : null}
            </li>
          ))}
        </ul>
        {isOwner ? <InviteForm action={action} full={conversation.memberCount >= CHAT_LIMITS.groupSize} lastResult={lastResult} /> : null}
        <Form method="post" action={action} className="flex justify-end">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="leave" />
          <Button type="submit" variant="ghost" size="sm" className="text-destructive hover:text-destructive">
            <LogOut aria-hidden /> Выйти из беседы
          </Button>
        </Form>
      </div>
    </details>
  );
}

function RemoveMember({ action, userId, username }: { action: string; userId: number; username: string }) {
  const fetcher = useFetcher<ConversationActionData>({ key: `remove-member-${userId}` });
  if (fetcher.formData) return <span className="text-xs text-muted-foreground">удаляем…</span>;
  return (
    <fetcher.Form method="post" action={action}>
      <AuthenticityTokenInput />
      <FetcherMarker />
      <input type="hidden" name="intent" value="remove-member" />
      <input type="hidden" name="userId" value={userId} />
      <Button type="submit" variant="ghost" size="sm" aria-label={`Удалить ${username} из беседы`} className="text-muted-foreground hover:text-destructive">
        <UserMinus aria-hidden /> <span className="hidden sm:inline">Удалить</span>
      </Button>
      {fetcher.data && !fetcher.data.ok ? <FormErrors errors={fetcher.data.result.error?.[""] ?? null} /> : null}
    </fetcher.Form>
  );
}

function InviteForm({ action, full, lastResult }: { action: string; full: boolean; lastResult?: SubmissionResult<string[]> | null }) {
  const fetcher = useFetcher<ConversationActionData>({ key: `invite-${action}` });
  const [form, fields] = useForm({
    id: `invite-${action}`,
    lastResult: fetcher.state === "idle" ? (fetcher.data?.result ?? lastResult) : lastResult,
    constraint: getZodConstraint(InviteSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
  });
  const invited = fetcher.state === "idle" && fetcher.data?.ok ? fetcher.data : null;
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (invited) status.current?.focus();
  }, [invited]);
  if (full) return <p className="text-sm text-muted-foreground">В беседе {CHAT_LIMITS.groupSize} участников — больше пригласить нельзя.</p>;
  return (
    <fetcher.Form method="post" action={action} {...getFormProps(form)} className="grid gap-2">
      <AuthenticityTokenInput />
      <FetcherMarker />
      <input type="hidden" name="intent" value="invite" />
      <label htmlFor={fields.username.id} className="text-sm font-medium">
        Пригласить по имени пользователя
      </label>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="flex gap-2">
        <Input {...getInputProps(fields.username, { type: "text" })} placeholder="@username" autoComplete="off" className="flex-1" />
        <Button type="submit" size="default" disabled={fetcher.state === "submitting"}>
          <UserPlus aria-hidden /> Пригласить
        </Button>
      </div>
      <FieldErrors id={fields.username.errorId} errors={fields.username.errors} />
      {invited ? (
        <p ref={status} tabIndex={-1} role="status" className="text-sm text-success">
          Участник добавлен в беседу.
        </p>
      ) : null}
    </fetcher.Form>
  );
}
