/** /post/{id}/edit: the author edits their post (sign-in required; others get 403). */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/edit";
import { PostForm } from "~/components/posts/post-form";
import { PostInputSchema } from "~/domain/posts/schemas";
import { withAttachedImage } from "./attached-image.server";
import { assertAuthor, getPost, updatePost } from "~/domain/posts/posts.server";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm, replyWithError } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Редактирование поста");

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    const post = await getPost(context.db, Number(params.id), user);
    assertAuthor({ authorId: post.author.id }, user);
    return { post };
  });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await pageData(() => readForm(request));
  const submission = parseWithZod(form, { schema: PostInputSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await validateCsrf(request);
    const body = await withAttachedImage(context, user, form, submission.value.body);
    const post = await updatePost(context.db, user, Number(params.id), { ...submission.value, body });
    return redirectWithToast(`/post/${post.id}`, { title: "Изменения сохранены" });
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function EditPostPage({ loaderData, actionData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <div className="mx-auto grid max-w-3xl gap-6 lg:max-w-6xl">
      <h1 className="font-heading text-3xl font-extrabold">Редактирование поста</h1>
      <PostForm
        action={`/post/${post.id}/edit`}
        submitLabel="Сохранить"
        draftKey={String(post.id)}
        lastResult={actionData?.result}
        defaultValue={{ title: post.title, body: post.body, categoryId: String(post.category.id), kind: post.kind }}
      />
    </div>
  );
}
