/**
 * One notification in the list of /profile/notifications: the sender's avatar (scam overlay
 * for a SCAMMER), the title, what it is about (the post's title or the comment's excerpt,
 * docs/product/notifications.md#targets; else the description) and the time, with unread ones marked. The text
 * is a form button: posting `intent=read` marks it read and the page's action redirects to
 * its link, with or without JavaScript.
 */
import { RelativeTime } from "~/components/ui/relative-time";
import { Form } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Avatar } from "~/components/ui/avatar";
import { TrustHoverCard } from "~/components/users/trust-card";
import { describeTarget } from "~/domain/notifications/targets";
import type { NotificationDto } from "~/domain/notifications/types";
import { cn } from "~/lib/utils";

export function NotificationItem({ notification, read, action }: { notification: NotificationDto; read: boolean; action: string }) {
  const n = notification;
  const target = describeTarget(n.target);
  return (
    <li
      data-testid="notification"
      data-read={read ? "true" : "false"}
      className={cn(
        "flex items-start gap-3 rounded-xl border p-4 transition-colors",
        read ? "border-border bg-card" : "border-primary/40 bg-primary/5 shadow-sm",
      )}
    >
      <TrustHoverCard member={{ id: n.senderId, username: n.sender.name, image: n.sender.avatar, ranks: n.sender.ranks }}>
        <Avatar
          username={n.sender.name}
          src={n.sender.avatar}
          size="sm"
          picture="notification"
          link={`/profile/${n.senderId}`}
          overlay={n.sender.ranks.includes("SCAMMER") ? "scam" : undefined}
        />
      </TrustHoverCard>
      <Form method="post" action={action} className="min-w-0 flex-1">
        <AuthenticityTokenInput />
        <input type="hidden" name="intent" value="read" />
        <input type="hidden" name="id" value={n.id ?? ""} />
        <button
          type="submit"
          className="block w-full rounded-md text-left outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
        >
          <span className={cn("block break-words hover:underline", read ? "font-medium" : "font-semibold")} data-testid="notification-title">
            {n.title}
          </span>
          {target ? (
            <span
              className={cn("block text-sm break-words", n.target?.text === null ? "text-muted-foreground italic" : "text-primary")}
              data-testid="notification-target"
            >
              {target}
            </span>
          ) : (
            <span className="block text-sm text-muted-foreground">{n.description}</span>
          )}
          <RelativeTime iso={n.updatedAt} className="mt-1 block text-xs text-muted-foreground" />
        </button>
      </Form>
      {read ? null : (
        <span className="mt-1.5 inline-flex items-center" data-testid="notification-unread">
          <span aria-hidden className="size-2.5 rounded-full bg-primary" />
          <span className="sr-only">Не прочитано</span>
        </span>
      )}
    </li>
  );
}
