import { useEffect } from "react";
import { Icon } from "~/components/ui/icon";
import { useFetcher, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/use-toast";
import { FAILURE_TITLE, noInformationText } from "~/lib/reply-toast";
import { cn } from "~/lib/utils";

/** What POST /bookmarks answers a fetcher: the new state, or the refusal to show. */
export type BookmarkActionData = { ok: true; bookmarked: boolean } | { ok: false; code: string; message: string };

/**
 * Bookmark or un-bookmark a post (issue 3 item 5): a form posting to /bookmarks that
 * redirects back without JavaScript and flips at once with it. A visitor (`canBookmark`
 * false) gets a link to sign in. `compact` shows only the icon (feeds); otherwise the label
 * is written out (the post page).
 */
export function BookmarkButton({
  postId,
  bookmarked,
  canBookmark,
  compact = false,
}: {
  postId: number;
  bookmarked: boolean;
  canBookmark: boolean;
  compact?: boolean;
}) {
  const fetcher = useFetcher<BookmarkActionData>();
  const location = useLocation();
  const anchor = `bookmark-${postId}`;
  const here = location.pathname + location.search;

  const pending = fetcher.formData?.get("bookmarked");
  const shown = typeof pending === "string" ? pending === "true" : bookmarked;
  const label = shown ? "Убрать из закладок" : "В закладки";

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) {
      toast({ variant: "destructive", title: FAILURE_TITLE, description: fetcher.data.message || noInformationText(here) });
    }
  }, [fetcher.state, fetcher.data, here]);

  const content = (
    <>
      <Icon name="bookmark" className={cn("size-4", shown && "fill-current")} />
      {compact ? null : <span>{label}</span>}
    </>
  );
  const buttonClass = cn("gap-1.5", shown ? "text-primary hover:text-primary" : "text-muted-foreground");

  if (!canBookmark) {
    return (
      <Button asChild variant="ghost" size="sm" className={buttonClass}>
        <Link
          id={anchor}
          to={`/auth/login?redirect=${encodeURIComponent(here)}`}
          title="Войдите, чтобы добавить в закладки"
          aria-label={compact ? "В закладки" : undefined}
        >
          {content}
        </Link>
      </Button>
    );
  }
  return (
    <fetcher.Form method="post" action="/bookmarks" id={anchor} className="inline-flex">
      <AuthenticityTokenInput />
      <input type="hidden" name="postId" value={postId} />
      <input type="hidden" name="bookmarked" value={String(!shown)} />
      <input type="hidden" name="redirectTo" value={`${here}#${anchor}`} />
      <FetcherMarker />
      <Button type="submit" variant="ghost" size="sm" className={buttonClass} aria-pressed={shown} aria-label={compact ? label : undefined} title={label}>
        {content}
      </Button>
    </fetcher.Form>
  );
}
