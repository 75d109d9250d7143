/**
 * /profile/notifications (sign-in required; docs/product/notifications.md): the member's
 * notifications, most recently updated first, 10 a page. Posting `intent=read&id=…` marks one
 * read and goes to its link; `intent=read-all` marks every one read. Both work without
 * JavaScript (form post + redirect); with it «Отметить все как прочитанные» is a fetcher and
 * the list turns read at once. Another member's or an unknown notification answers 404, a bad
 * id 400, on the error page.
 */
import { useEffect } from "react";
import { redirect, useFetcher, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/notifications";
import { FetcherMarker, sentByFetcher } from "~/components/forms/fetcher-marker";
import { NotificationItem } from "~/components/notifications/notification-item";
import { Button } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { toast } from "~/components/ui/use-toast";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "~/domain/notifications/notifications.server";
import { NotificationActionSchema } from "~/domain/notifications/schemas";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { parseForm } from "~/routes/_shared/form-target.server";
import { formatCount } from "~/lib/format";
import { useRootData } from "~/root-data";
import { readForm } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { safeRedirect } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Уведомления");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  // The unread count comes with the root loader's data (the header's bell shows it too).
  return { page: await listNotifications(context.db, user.id, parsePageParams(new URL(request.url).searchParams)) };
}

const ALL_READ = "Все уведомления отмечены как прочитанные";

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    const form = await readForm(request);
    await validateCsrf(request);
    const input = parseForm(NotificationActionSchema, form);
    if (input.intent === "read") {
      const notification = await markNotificationRead(context.db, user.id, input.id);
      return redirect(safeRedirect(notification.url));
    }
    const { marked } = await markAllNotificationsRead(context.db, user.id);
    if (sentByFetcher(form)) return { ok: true as const, marked };
    const here = new URL(request.url);
    return redirectWithToast(here.pathname + here.search, { title: ALL_READ });
  });
}

export default function NotificationsPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const unread = useRootData()?.realtime?.notifications ?? 0;
  const location = useLocation();
  const readAll = useFetcher<typeof action>();
  const here = location.pathname + location.search;
  // With JavaScript the list turns read as soon as «Отметить все» is pressed.
  const allRead = readAll.state !== "idle" && readAll.formData?.get("intent") === "read-all";
  const unreadShown = allRead ? 0 : unread;

  useEffect(() => {
    if (readAll.state === "idle" && readAll.data?.ok) toast({ title: ALL_READ });
  }, [readAll.state, readAll.data]);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Уведомления</h1>
          <p className="mt-1 text-muted-foreground" data-testid="notifications-unread-count">
            {unreadShown > 0 ? `Непрочитанных: ${formatCount(unreadShown)}` : "Все уведомления прочитаны"}
          </p>
        </div>
        {unreadShown > 0 ? (
          <readAll.Form method="post" action={here}>
            <AuthenticityTokenInput />
            <input type="hidden" name="intent" value="read-all" />
            <FetcherMarker />
            <Button type="submit" variant="outline">
              Отметить все как прочитанные
            </Button>
          </readAll.Form>
        ) : null}
      </div>

      {page.items.length > 0 ? (
        <ul className="grid gap-3" aria-label="Уведомления">
          {page.items.map((n) => (
            <NotificationItem key={n.id} notification={n} read={n.read || allRead} action={here} />
          ))}
        </ul>
      ) : page.total > 0 ? (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">
          На этой странице уведомлений больше нет.{" "}
          <Link to="/profile/notifications" className="text-primary hover:underline">
            К первой странице
          </Link>
        </p>
      ) : (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground" data-testid="notifications-empty">
          Уведомлений пока нет. Здесь появятся оценки и комментарии к вашим постам, ответы, упоминания и новые посты тех, на кого вы подписаны.
        </p>
      )}

      <Pagination page={page.page} totalPages={page.totalPages} makeHref={(p) => withSearchParam("/profile/notifications", location.search, "page", p)} />
    </div>
  );
}
