/**
 * The bell's menu (docs/product/notifications.md#the-bell), loaded by notification-bell.tsx once
 * the page has hydrated, opened by a press on the bell's link and placed beside it (the link is
 * never replaced, decision 0041): the latest 10 notifications — sender, title and target, unread
 * ones marked — with «Отметить все прочитанными» and «Все уведомления». The list is loaded from the
 * /profile/notifications loader each time the menu opens, and again while it is open whenever
 * the live unread count changes. Choosing a notification posts `intent=read` there, which marks
 * it read and redirects to its link; the badge keeps following the realtime counters.
 */
import { CheckCheck } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useFetcher, useSubmit } from "react-router";
import { Link } from "~/components/ui/link";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { VIA_FETCHER } from "~/components/forms/fetcher-marker";
import { Avatar } from "~/components/ui/avatar";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { RelativeTime } from "~/components/ui/relative-time";
import { describeTarget } from "~/domain/notifications/targets";
import type { NotificationDto } from "~/domain/notifications/types";
import type { Page } from "~/lib/pagination";
import { cn, isPlainClick } from "~/lib/utils";
import { NOTIFICATIONS_PATH } from "./bell-parts";

/** How many notifications the menu shows (the list page's first page). */
const MENU_SIZE = 10;

/**
 * The menu of the bell link `bell` for a member with `count` unread notifications, shown while
 * `open`; `onOpenChange` is told when the menu closes itself (Escape, a press elsewhere, a choice).
 */
export default function BellMenu({
  count,
  open,
  onOpenChange,
  bell,
}: {
  count: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  bell: React.RefObject<HTMLAnchorElement | null>;
}) {
  // Set by «Отметить все прочитанными» until the menu closes: the shown list turns read at once.
  const [markedAll, setMarkedAll] = useState(false);
  const list = useFetcher<{ page: Page<NotificationDto> }>({ key: "notification-bell" });
  const readAll = useFetcher<{ ok: true; marked: number }>();
  const submit = useSubmit();
  const csrf = useAuthenticityToken();
  const load = useRef(list.load);
  load.current = list.load;
  // A press outside the menu and the bell (which then keeps the focus it took) or a focus moved away.
  const interactedOutside = useRef(false);
  // The menu is named by its heading: Radix would name it by its trigger, a box with no text.
  const headingId = useId();

  // Fresh each time it opens, and again when a live notification arrives while it is open.
  useEffect(() => {
    if (open) void load.current(`${NOTIFICATIONS_PATH}?perPage=${MENU_SIZE}`);
  }, [open, count]);
  // A later opening shows the server's list again.
  useEffect(() => {
    if (!open) setMarkedAll(false);
  }, [open]);

  const items = list.data?.page.items ?? [];
  const allRead = markedAll;

  function markAllRead(event: Event) {
    // Keep the menu open: the list turns read in place.
    event.preventDefault();
    setMarkedAll(true);
    void readAll.submit({ intent: "read-all", csrf, [VIA_FETCHER.name]: VIA_FETCHER.value }, { method: "post", action: NOTIFICATIONS_PATH });
  }

  function openNotification(event: React.MouseEvent<HTMLAnchorElement>, n: NotificationDto) {
    // A new tab or window goes to the link itself; a plain click marks it read on the way.
    if (!isPlainClick(event) || n.id === null) return;
    event.preventDefault();
    onOpenChange(false);
    void submit({ intent: "read", id: String(n.id), csrf }, { method: "post", action: NOTIFICATIONS_PATH });
  }

  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange} modal={false}>
      {/* Radix places the menu by its trigger: a box over the bell's link, which does the opening. */}
      <DropdownMenuTrigger asChild>
        <span aria-hidden className="pointer-events-none absolute inset-0" />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        sideOffset={8}
        className="w-[min(26rem,calc(100vw-1rem))] p-0"
        data-testid="notifications-menu"
        aria-labelledby={headingId}
        onInteractOutside={(event) => {
          // A press on the bell is the bell's own toggle.
          if (event.target instanceof Node && bell.current?.contains(event.target)) event.preventDefault();
          else interactedOutside.current = true;
        }}
        onCloseAutoFocus={(event) => {
          // Back to the bell, as to a trigger, unless the member went elsewhere.
          event.preventDefault();
          if (!interactedOutside.current) bell.current?.focus();
          interactedOutside.current = false;
        }}
      >
        <div className="flex items-center justify-between gap-3 border-b border-border px-3 py-2">
          <p id={headingId} className="font-heading font-bold">
            Уведомления
          </p>
          {count > 0 && !allRead ? (
            <DropdownMenuItem onSelect={markAllRead} className="min-h-9 text-primary focus:text-primary">
              <CheckCheck aria-hidden className="text-primary" />
              Отметить все прочитанными
            </DropdownMenuItem>
          ) : null}
        </div>
        <div className="max-h-[min(28rem,calc(100dvh-10rem))] overflow-y-auto p-1" aria-busy={list.state === "loading"}>
          {list.data === undefined ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground">Загрузка…</p>
          ) : items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted-foreground" data-testid="notifications-menu-empty">
              Уведомлений пока нет
            </p>
          ) : (
            items.map((n) => <MenuEntry key={n.id} n={n} read={n.read || allRead} onOpen={openNotification} />)
          )}
        </div>
        <DropdownMenuSeparator className="my-0" />
        <DropdownMenuItem asChild className="m-1 min-h-10 justify-center font-medium text-primary focus:text-primary">
          <Link to={NOTIFICATIONS_PATH}>Все уведомления</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function MenuEntry({
  n,
  read,
  onOpen,
}: {
  n: NotificationDto;
  read: boolean;
  onOpen: (event: React.MouseEvent<HTMLAnchorElement>, n: NotificationDto) => void;
}) {
  const target = describeTarget(n.target);
  return (
    <DropdownMenuItem asChild className={cn("items-start gap-3 rounded-md px-2 py-2", !read && "bg-primary/5")}>
      <a href={n.url} onClick={(event) => onOpen(event, n)} data-testid="notifications-menu-item" data-read={read ? "true" : "false"}>
        <Avatar
          username={n.sender.name}
          src={n.sender.avatar}
          size="sm"
          picture="notification"
          overlay={n.sender.ranks.includes("SCAMMER") ? "scam" : undefined}
        />
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className={cn("break-words text-foreground", read ? "font-normal" : "font-semibold")}>{n.title}</span>
          {target ? (
            <span className={cn("line-clamp-2 break-words text-xs", n.target?.text === null ? "text-muted-foreground italic" : "text-primary")}>{target}</span>
          ) : null}
          <RelativeTime iso={n.updatedAt} className="text-xs text-muted-foreground" />
        </span>
        {read ? null : (
          <span className="mt-1.5 inline-flex shrink-0 items-center">
            <span aria-hidden className="size-2 rounded-full bg-primary" />
            <span className="sr-only">Не прочитано</span>
          </span>
        )}
      </a>
    </DropdownMenuItem>
  );
}
