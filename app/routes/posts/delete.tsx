/**
 * /post/{id}/delete: the author deletes their own post (docs/product/content.md#posts). GET is the
 * confirmation step — the second page without JavaScript (with it the post page asks in place and
 * posts here); POST deletes and goes to the author's posts with a toast. Anyone but the author
 * gets 403 `not_post_author`, an unknown or deleted post 404 `post_not_found`, on the error page.
 */
import { Form, Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Trash2 } from "lucide-react";
import type { Route } from "./+types/delete";
import { deleteConsequences } from "~/components/posts/delete-post";
import { Button } from "~/components/ui/button";
import { deleteOwnPost, getPostToDelete } from "~/domain/posts/delete.server";
import { requireUser } from "~/lib/auth.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Удаление поста");

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => ({ post: await getPostToDelete(context.db, user, Number(params.id)) }));
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  return pageData(async () => {
    await validateCsrf(request);
    await deleteOwnPost(context.db, user, Number(params.id));
    return redirectWithToast("/profile/posts", { title: "Пост удалён" });
  });
}

export default function DeletePostPage({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <div className="mx-auto grid max-w-xl gap-5 rounded-xl border border-destructive/40 bg-card p-5 sm:p-6">
      <h1 className="font-heading text-2xl font-extrabold">{`Удалить пост «${post.title}»?`}</h1>
      <p className="text-muted-foreground">{deleteConsequences(post.commentCount)}</p>
      <Form method="post" className="flex flex-wrap gap-3">
        <AuthenticityTokenInput />
        <Button type="submit" variant="destructive" className="min-h-11 px-5">
          <Trash2 aria-hidden /> Удалить пост
        </Button>
        <Button asChild variant="outline" className="min-h-11 px-5">
          <Link to={`/post/${post.id}`}>Отмена</Link>
        </Button>
      </Form>
    </div>
  );
}
