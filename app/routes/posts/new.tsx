/** /posts/new: write a post (sign-in required, docs/product/routes.md#pages). */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/new";
import { PostForm } from "~/components/posts/post-form";
import { PostInputSchema } from "~/domain/posts/schemas";
import { withAttachedImage } from "./attached-image.server";
import { createPost } from "~/domain/posts/posts.server";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Новый пост");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const author = await requireUser(context, request);
  const form = await pageData(() => readForm(request));
  const submission = parseWithZod(form, { schema: PostInputSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    const body = await withAttachedImage(context, author, form, submission.value.body);
    const post = await createPost(context.db, author, { ...submission.value, body });
    return redirectWithToast(`/post/${post.id}`, { title: "Пост опубликован" });
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function NewPostPage({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6 lg:max-w-6xl">
      <h1 className="font-heading text-3xl font-extrabold">Новый пост</h1>
      <PostForm action="/posts/new" submitLabel="Опубликовать" lastResult={actionData?.result} withPreview draftKey="new" />
    </div>
  );
}
