/**
 * POST /profile/{id}/follow: follow (`intent=follow`), unfollow (`intent=unfollow`) or, with
 * no intent, toggle (docs/product/accounts.md#follows-and-blocks). Without JavaScript it redirects back with a toast or
 * shows the refusal; a fetcher (`via=fetcher`) gets `{ok, following}` or `{ok: false, message}`.
 * GET redirects to the profile.
 */
import { isRouteErrorResponse, redirect } from "react-router";
import type { Route } from "./+types/follow";
import { ActionRefusedPage } from "~/components/people/action-refused-page";
import { followMember, toggleFollow, unfollowMember } from "~/domain/people/follows.server";
import { FollowActionSchema } from "~/domain/people/schemas";
import { pageMeta } from "~/lib/meta";
import { refusalOf, type RelationRefusal } from "~/components/people/relation-refusal";
import { runProfileToggle } from "~/routes/_shared/profile-toggle.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Подписка");

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}

export type FollowActionData = { ok: true; following: boolean } | RelationRefusal;

export async function action(args: Route.ActionArgs) {
  return runProfileToggle(args, {
    schema: FollowActionSchema,
    perform: (actor, profileId, intent) =>
      intent === "follow"
        ? followMember(args.context.db, actor, profileId)
        : intent === "unfollow"
          ? unfollowMember(args.context.db, actor, profileId)
          : toggleFollow(args.context.db, actor, profileId),
    toData: (result) => ({ following: result.following }),
    toastTitle: (result) => (result.following ? `Вы подписались на ${result.profile.username}` : `Вы отписались от ${result.profile.username}`),
  });
}

/** Nothing to show: success redirects (or answers a fetcher), a refusal goes to the ErrorBoundary. */
export default function FollowAction() {
  return null;
}

/** The form was posted without JavaScript and refused: the reason and the way back. */
export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  const refusal = refusalOf(isRouteErrorResponse(error) ? error.data : null);
  return <ActionRefusedPage title="Подписка не изменена" errors={[refusal.message]} back={refusal.back ?? `/profile/${params.id}`} />;
}
