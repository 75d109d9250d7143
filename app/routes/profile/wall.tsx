/**
 * POST /profile/{id}/wall: write (`intent=create`, `body`), delete, pin or unpin
 * (`intent`, `entryId`) a wall entry (docs/product/content.md#wall). Without JavaScript it redirects
 * back to the profile with a toast, or shows the refusal with the form kept; a fetcher
 * (`via=fetcher`) gets Conform's reply instead. GET redirects to the profile.
 */
import type { SubmissionResult } from "@conform-to/react";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { readForm } from "~/lib/forms.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, isRouteErrorResponse, redirect } from "react-router";
import type { Route } from "./+types/wall";
import { ActionRefusedPage } from "~/components/people/action-refused-page";
import { WallForm } from "~/components/wall/wall-section";
import { profileReturnPath } from "~/domain/people/return-path";
import { WallActionSchema, type WallAction } from "~/domain/wall/schemas";
import { createWallPost, deleteWallPost, pinWallPost, unpinWallPost } from "~/domain/wall/wall.server";
import type { Db } from "~/db/client.server";
import type { UserRow } from "~/domain/users/users.server";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { AppError, pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Стена");

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/profile/${params.id}`);
}

/** What a fetcher (and the refusal page) gets back. */
export interface WallActionData {
  intent: string;
  result: SubmissionResult<string[]>;
  back: string;
}

const DONE: Record<WallAction["intent"], string> = {
  create: "Запись опубликована",
  delete: "Запись удалена",
  pin: "Запись закреплена",
  unpin: "Запись откреплена",
};

function run(db: Db, actor: UserRow, ownerId: number, action: WallAction) {
  if (action.intent === "create") return createWallPost(db, actor, ownerId, action);
  // The entry must be on this wall: /profile/5/wall never acts on an entry of wall 7.
  if (action.intent === "delete") return deleteWallPost(db, actor, action.entryId, ownerId);
  if (action.intent === "pin") return pinWallPost(db, actor, action.entryId, ownerId);
  return unpinWallPost(db, actor, action.entryId, ownerId);
}

/**
 * A refusal: a fetcher gets it as data; a plain form post gets it thrown, so this route's
 * ErrorBoundary shows it (a returned 4xx would still run the loader, which redirects).
 */
function refuse(js: boolean, payload: WallActionData, status: number) {
  if (js) return data(payload, { status });
  throw data(payload, { status });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await requireUser(context, request);
  const ownerId = Number(params.id);
  const formData = await pageData(() => readForm(request));
  const js = sentByFetcher(formData);
  const intent = String(formData.get("intent") ?? "");
  const back = profileReturnPath(ownerId, formData.get("back"), "#wall");
  const submission = parseWithZod(formData, { schema: WallActionSchema });
  if (submission.status !== "success") return refuse(js, { intent, result: submission.reply(), back }, 400);
  try {
    await validateCsrf(request);
    await run(context.db, actor, ownerId, submission.value);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const result = submission.reply({ formErrors: error.fieldErrors ? [] : [error.message], fieldErrors: error.fieldErrors });
    return refuse(js, { intent, result, back }, error.status);
  }
  if (js) return data<WallActionData>({ intent, result: submission.reply({ resetForm: true }), back });
  return redirectWithToast(intent === "create" ? profileReturnPath(ownerId, null, "#wall") : back, { title: DONE[submission.value.intent] });
}

/** Nothing to show: success redirects (or answers a fetcher), a refusal goes to the ErrorBoundary. */
export default function WallAction() {
  return null;
}

/** A form posted without JavaScript and refused: the reason, and for a new entry the form with the text kept. */
export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  const ownerId = Number(params.id);
  // A refusal thrown by this action carries its payload; one thrown earlier (a body that is not a form) a message.
  const payload: unknown = isRouteErrorResponse(error) ? error.data : null;
  const refused = typeof payload === "object" && payload !== null ? (payload as WallActionData) : null;
  const back = refused?.back ?? `/profile/${ownerId}`;
  if (refused?.intent === "create") {
    return (
      <ActionRefusedPage title="Запись не опубликована" errors={[]} back={back}>
        <WallForm ownerId={ownerId} lastResult={refused.result} />
      </ActionRefusedPage>
    );
  }
  const errors = refused
    ? Object.values(refused.result.error ?? {}).flatMap((messages) => messages ?? [])
    : [typeof payload === "string" ? payload : "Что-то пошло не так. Попробуйте ещё раз."];
  return <ActionRefusedPage title="Действие не выполнено" errors={errors} back={back} />;
}
