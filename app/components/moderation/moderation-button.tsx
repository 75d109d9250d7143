/**
 * Moderators' controls on content (docs/product/moderation.md#content-actions): one-button
 * forms posting to /moderation — delete and restore posts, comments, wall entries and
 * public-chat messages, close and open a post's comments, pin and unpin it, move it to another
 * category. Without JavaScript each is a plain form post that comes back with a toast; with
 * it a fetcher answers in place (the page revalidates) and a refusal shows as a toast.
 */
import { useEffect } from "react";
import { useFetcher, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FetcherMarker } from "~/components/forms/fetcher-marker";
import { Button, type ButtonProps } from "~/components/ui/button";
import { toast } from "~/components/ui/use-toast";
import { isModeratorRole } from "~/domain/users/roles";
import { useRootData } from "~/root-data";

/** Where moderation forms post. */
export const MODERATION_PATH = "/moderation";

/** True when the signed-in viewer moderates (moderator or admin). */
export function useIsModerator(): boolean {
  const viewer = useRootData()?.viewer;
  return viewer ? isModeratorRole(viewer.role) : false;
}

/** What /moderation answers a fetcher. */
export type ModerationActionData = { ok: true; message: string } | { ok: false; code: string; message: string };

export type ModerationIntent = "delete" | "restore" | "close" | "open" | "pin" | "unpin" | "move";

export interface ModerationFormProps {
  intent: ModerationIntent;
  /** For delete and restore: the kind of item. */
  type?: "post" | "comment" | "wall_post" | "message";
  id: number;
  children: React.ReactNode;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  className?: string;
  /** Extra fields before the button (the category select of «move»). */
  fields?: React.ReactNode;
}

/** One moderation form: hidden fields, optional extra fields and a submit button. */
export function ModerationForm({ intent, type, id, children, variant = "outline", size = "sm", className, fields }: ModerationFormProps) {
  const fetcher = useFetcher<ModerationActionData>();
  const location = useLocation();
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast({ title: fetcher.data.message });
    else toast({ variant: "destructive", title: "Не получилось", description: fetcher.data.message });
  }, [fetcher.state, fetcher.data]);
  return (
    <fetcher.Form method="post" action={MODERATION_PATH} preventScrollReset className={className ?? "inline-flex max-w-full flex-wrap items-center gap-2"}>
      <AuthenticityTokenInput />
      <FetcherMarker />
      <input type="hidden" name="intent" value={intent} />
      {type ? <input type="hidden" name="type" value={type} /> : null}
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}${location.hash}`} />
      {fields}
      <Button type="submit" variant={variant} size={size} disabled={fetcher.state !== "idle"} data-intent={intent}>
        {children}
      </Button>
    </fetcher.Form>
  );
}
