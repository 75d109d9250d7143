/**
 * POST /post/{id}/comments: write a comment or a reply (`intent=create`, optional `parentId`),
 * edit one (`intent=edit`) or delete one (`intent=delete`). Sign-in required.
 *
 * Without JavaScript the action redirects back to /post/{id}#comment-{id} with a flash toast;
 * a refused form (validation, rate limit, rights) renders this module's page with the
 * message and the text kept, so nothing typed is lost. Fetchers (marked by `via=fetcher`)
 * get Conform's reply as data instead. GET redirects to the post.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/comments";
import { CommentForm } from "~/components/comments/comment-form";
import { sentByFetcher } from "~/components/forms/fetcher-marker";
import { FormErrors } from "~/components/forms/form-errors";
import { commentUrl } from "~/domain/comments/comments.server";
import { createComment, deleteComment, editComment } from "~/domain/comments/write.server";
import { CommentActionSchema, type CommentAction } from "~/domain/comments/schemas";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Комментарий не сохранён");

/**
 * A visit (GET) goes to the post's comments. After a refused form post without JavaScript,
 * React Router runs this loader with the POST's headers to render the refusal page; a form
 * body type marks that case (a GET has no body), and then there is nothing to load.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(contentType)) return null;
  return redirect(`/post/${params.id}#comments`);
}

const SAVED: Record<CommentAction["intent"], string> = {
  create: "Комментарий опубликован",
  edit: "Комментарий изменён",
  delete: "Комментарий удалён",
};

export async function action({ params, request, context }: Route.ActionArgs) {
  const actor = await requireUser(context, request);
  const postId = Number(params.id);
  const formData = await pageData(() => readForm(request));
  const submission = parseWithZod(formData, { schema: CommentActionSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    const input = submission.value;
    const comment =
      input.intent === "create"
        ? await createComment(context.db, actor, postId, input)
        : input.intent === "edit"
          ? await editComment(context.db, actor, postId, input.commentId, input.body)
          : await deleteComment(context.db, actor, postId, input.commentId);
    if (sentByFetcher(formData)) {
      return data({ result: submission.reply({ resetForm: true }), commentId: comment.id });
    }
    return redirectWithToast(await commentUrl(context.db, comment.postId, comment.id), { title: SAVED[input.intent] });
  } catch (error) {
    return replyWithError(submission, error);
  }
}

/** Shown only without JavaScript, when the server refused a comment form: the reason and the text, to try again. */
export default function CommentRefusedPage({ actionData, params }: Route.ComponentProps) {
  const result = actionData?.result;
  const initial = (result?.initialValue ?? {}) as Record<string, unknown>;
  const intent = initial.intent === "edit" ? "edit" : initial.intent === "create" ? "create" : null;
  const postId = Number(params.id);
  const ids = { parentId: toId(initial.parentId), commentId: toId(initial.commentId) };
  return (
    <main className="mx-auto grid max-w-2xl gap-6 px-4 py-10">
      <h1 className="font-heading text-3xl font-extrabold">Комментарий не сохранён</h1>
      {intent && Number.isSafeInteger(postId) ? (
        <CommentForm
          postId={postId}
          intent={intent}
          parentId={intent === "create" ? ids.parentId : undefined}
          commentId={intent === "edit" ? ids.commentId : undefined}
          defaultBody={typeof initial.body === "string" ? initial.body : ""}
          label="Текст комментария"
          submitLabel={intent === "edit" ? "Сохранить" : "Отправить ещё раз"}
          mode="navigate"
          lastResult={result}
        />
      ) : (
        <FormErrors errors={Object.values(result?.error ?? {}).flatMap((messages) => messages ?? [])} />
      )}
      <p>
        <Link to={`/post/${params.id}#comments`} className="font-medium text-primary hover:underline">
          ← Вернуться к посту
        </Link>
      </p>
    </main>
  );
}

function toId(value: unknown): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
