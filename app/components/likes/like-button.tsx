import { createContext, useContext, useEffect } from "react";
import { Icon } from "~/components/ui/icon";
import { useFetcher, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { FetcherMarker, useFetcherPost } from "~/components/forms/fetcher-marker";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { toast } from "~/components/ui/use-toast";
import { FAILURE_TITLE, noInformationText } from "~/lib/reply-toast";
import type { LikeTarget } from "~/lib/events.server";
import { formatCount } from "~/lib/format";
import { useRootData } from "~/root-data";
import { cn } from "~/lib/utils";

/** What POST /likes answers a fetcher: the new state, or the refusal to show. */
export type LikeActionData = { ok: true; liked: boolean; likeCount: number } | { ok: false; code: string; message: string };

/**
 * The targets whose like buttons on this page submit the page's shared like forms (`SharedLikeForms`)
 * instead of carrying a form each (decision 0039: 50 comments' forms were 21 KB of a member's page).
 */
const SharedTargets = createContext<ReadonlySet<LikeTarget>>(new Set());

/** The id of the page's shared form that sets `target`'s like to `liked`. */
function sharedFormId(target: LikeTarget, liked: boolean): string {
  return `like-${target}-${liked ? "on" : "off"}`;
}

/**
 * Two hidden forms for `target` (liking and unliking), once per page, and the context that makes
 * every LikeButton of `target` inside `children` a lone `<button form=… name="id">`. Without
 * JavaScript the button posts its form with its item's id, and /likes returns to the button's
 * anchor; with it the button goes through its fetcher as before. `enabled` false (a visitor
 * reads the page) renders the children alone.
 */
export function SharedLikeForms({ target, enabled = true, children }: { target: LikeTarget; enabled?: boolean; children: React.ReactNode }) {
  const location = useLocation();
  const outer = useContext(SharedTargets);
  const here = location.pathname + location.search;
  // A visitor's like buttons are sign-in links: no form to share.
  if (!enabled) return children;
  return (
    <SharedTargets.Provider value={new Set([...outer, target])}>
      {[true, false].map((liked) => (
        <form key={String(liked)} id={sharedFormId(target, liked)} method="post" action="/likes" hidden>
          <AuthenticityTokenInput />
          <input type="hidden" name="target" value={target} />
          <input type="hidden" name="liked" value={String(liked)} />
          <input type="hidden" name="redirectTo" value={here} />
        </form>
      ))}
      {children}
    </SharedTargets.Provider>
  );
}

const OWN_ITEM_TITLE: Record<LikeTarget, string> = {
  post: "Нельзя оценить свой пост",
  comment: "Нельзя оценить свой комментарий",
  wall_post: "Нельзя оценить свою запись",
};

/**
 * The like control of a post, comment or wall post (issue 3 item 2): a form posting to
 * /likes. Without JavaScript the action redirects back to this button (its id is the page
 * anchor); with it the form goes through a fetcher and the heart and count flip at once,
 * falling back to the server's answer (and a toast) if it refuses. `disabled` is for a
 * visitor, who gets a link to sign in instead, and for the item's author. Inside
 * `SharedLikeForms` for its target it is a lone button of the page's shared form (decision 0039).
 */
export function LikeButton({
  target,
  targetId,
  liked,
  count,
  disabled,
}: {
  target: LikeTarget;
  targetId: number;
  liked: boolean;
  count: number;
  disabled?: boolean;
}) {
  const fetcher = useFetcher<LikeActionData>();
  const location = useLocation();
  const signedIn = Boolean(useRootData()?.viewer);
  const shared = useContext(SharedTargets).has(target);
  const post = useFetcherPost(fetcher);
  const anchor = `like-${target}-${targetId}`;
  const here = location.pathname + location.search;

  const pending = fetcher.formData?.get("liked");
  const shownLiked = typeof pending === "string" ? pending === "true" : liked;
  const shownCount = Math.max(0, count + (shownLiked === liked ? 0 : shownLiked ? 1 : -1));
  const label = shownLiked ? "Больше не нравится" : "Нравится";

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) {
      toast({ variant: "destructive", title: FAILURE_TITLE, description: fetcher.data.message || noInformationText(here) });
    }
  }, [fetcher.state, fetcher.data, here]);

  const content = (
    <>
      <Icon name="heart" className={cn("size-4", shownLiked && "fill-current")} />
      <span data-testid="like-count">{formatCount(shownCount)}</span>
    </>
  );
  // One class for the control's look (app/styles/components.css): it repeats on every comment.
  const buttonClass = cn("btn btn-like", shownLiked && "text-rose-600 hover:text-rose-700");

  if (disabled && !signedIn) {
    return (
      // No anchor id: a visitor's like never comes back to it.
      <Link to={`/auth/login?redirect=${encodeURIComponent(here)}`} className={buttonClass} aria-label="Войдите, чтобы оценить" title="Войдите, чтобы оценить">
        {content}
      </Link>
    );
  }
  if (disabled) {
    return (
      <button id={anchor} type="button" className={buttonClass} disabled aria-pressed={liked} aria-label={label} title={OWN_ITEM_TITLE[target]}>
        {content}
      </button>
    );
  }
  if (shared) {
    return (
      <button
        id={anchor}
        type="submit"
        form={sharedFormId(target, !shownLiked)}
        name="id"
        value={targetId}
        className={buttonClass}
        aria-pressed={shownLiked}
        aria-label={label}
        title={label}
        onClick={(event) => {
          // With JavaScript the fetcher sends it, so the heart flips at once (the form is the fallback).
          event.preventDefault();
          post("/likes", { target, id: String(targetId), liked: String(!shownLiked) });
        }}
      >
        {content}
      </button>
    );
  }
  return (
    <fetcher.Form method="post" action="/likes" id={anchor} className="inline-flex">
      <AuthenticityTokenInput />
      <input type="hidden" name="target" value={target} />
      <input type="hidden" name="id" value={targetId} />
      <input type="hidden" name="liked" value={String(!shownLiked)} />
      <input type="hidden" name="redirectTo" value={`${here}#${anchor}`} />
      <FetcherMarker />
      <button type="submit" className={buttonClass} aria-pressed={shownLiked} aria-label={label} title={label}>
        {content}
      </button>
    </fetcher.Form>
  );
}
