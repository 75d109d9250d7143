/**
 * POST /profile/{id}/block: block (`intent=block`), unblock (`intent=unblock`) or, with no
 * intent, toggle (PRODUCT.md People; blocking also ends follows both ways). Without
 * JavaScript it redirects back with a toast or shows the refusal; a fetcher (`via=fetcher`) gets
 * `{ok, blocking}` or `{ok: false, message}`. GET redirects to the profile.
 */
import { data, isRouteErrorResponse, redirect } from "react-router";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { readForm } from "~/lib/forms.server";
import type { Route } from "./+types/block";
import { ActionRefusedPage } from "~/components/people/action-refused-page";
import { blockMember, toggleBlock, unblockMember } from "~/domain/people/blocks.server";
import { profileReturnPath } from "~/domain/people/return-path";
import { BlockActionSchema } from "~/domain/people/schemas";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, ValidationFailed, pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Блокировка");

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}

export type BlockActionData = { ok: true; blocking: boolean } | { ok: false; message: string; code: string; back: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireUser(context, request);
  const profileId = Number(params.id);
  const formData = await pageData(() => readForm(request));
  const js = sentByFetcher(formData);
  const back = profileReturnPath(profileId, formData.get("back"));
  try {
    const parsed = BlockActionSchema.safeParse({ intent: formData.get("intent") ?? undefined });
    if (!parsed.success) throw new ValidationFailed(parsed.error.issues[0]!.message, undefined, "invalid_intent");
    await validateCsrf(request);
    const { intent } = parsed.data;
    const result =
      intent === "block"
        ? await blockMember(context.db, actor, profileId)
        : intent === "unblock"
          ? await unblockMember(context.db, actor, profileId)
          : await toggleBlock(context.db, actor, profileId);
    if (js) return data<BlockActionData>({ ok: true, blocking: result.blocking });
    const title = result.blocking ? `${result.profile.username} заблокирован` : `${result.profile.username} разблокирован`;
    return redirectWithToast(back, { title });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refusal: BlockActionData = { ok: false, message: error.message, code: error.code, back };
    // A fetcher gets the refusal as data; a plain form post gets it thrown, so the
    // ErrorBoundary shows it (a returned 4xx would still run the loader, which redirects).
    if (js) return data(refusal, { status: error.status });
    throw data(refusal, { status: error.status });
  }
}

/** Nothing to show: success redirects (or answers a fetcher), a refusal goes to the ErrorBoundary. */
export default function BlockAction() {
  return null;
}

/** The form was posted without JavaScript and refused: the reason and the way back. */
export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  const payload: unknown = isRouteErrorResponse(error) ? error.data : null;
  const refused = typeof payload === "object" && payload !== null ? (payload as Extract<BlockActionData, { ok: false }>) : null;
  const errors = [refused?.message ?? (typeof payload === "string" ? payload : "Что-то пошло не так. Попробуйте ещё раз.")];
  return <ActionRefusedPage title="Блокировка не изменена" errors={errors} back={refused?.back ?? `/profile/${params.id}`} />;
}
