/**
 * POST /profile/{id}/block: block (`intent=block`), unblock (`intent=unblock`) or, with no
 * intent, toggle (docs/product/accounts.md#follows-and-blocks; blocking also ends follows both ways). Without
 * JavaScript it redirects back with a toast or shows the refusal; a fetcher (`via=fetcher`) gets
 * `{ok, blocking}` or `{ok: false, message}`. GET redirects to the profile.
 */
import { isRouteErrorResponse, redirect } from "react-router";
import type { Route } from "./+types/block";
import { ActionRefusedPage } from "~/components/people/action-refused-page";
import { blockMember, toggleBlock, unblockMember } from "~/domain/people/blocks.server";
import { BlockActionSchema } from "~/domain/people/schemas";
import { pageMeta } from "~/lib/meta";
import { refusalOf, type RelationRefusal } from "~/components/people/relation-refusal";
import { runProfileToggle } from "~/routes/_shared/profile-toggle.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Блокировка");

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}

export type BlockActionData = { ok: true; blocking: boolean } | RelationRefusal;

export async function action(args: Route.ActionArgs) {
  return runProfileToggle(args, {
    schema: BlockActionSchema,
    perform: (actor, profileId, intent) =>
      intent === "block"
        ? blockMember(args.context.db, actor, profileId)
        : intent === "unblock"
          ? unblockMember(args.context.db, actor, profileId)
          : toggleBlock(args.context.db, actor, profileId),
    toData: (result) => ({ blocking: result.blocking }),
    toastTitle: (result) => (result.blocking ? `${result.profile.username} заблокирован` : `${result.profile.username} разблокирован`),
  });
}

/** Nothing to show: success redirects (or answers a fetcher), a refusal goes to the ErrorBoundary. */
export default function BlockAction() {
  return null;
}

/** The form was posted without JavaScript and refused: the reason and the way back. */
export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  const refusal = refusalOf(isRouteErrorResponse(error) ? error.data : null);
  return <ActionRefusedPage title="Блокировка не изменена" errors={[refusal.message]} back={refusal.back ?? `/profile/${params.id}`} />;
}
