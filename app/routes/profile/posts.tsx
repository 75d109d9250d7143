/** /profile/posts: the signed-in member's own posts (sign-in required). */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/posts";
import { PostList } from "~/components/posts/post-card";
import { Button } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { bookmarkedPostIds } from "~/domain/bookmarks/bookmarks.server";
import { listPosts } from "~/domain/posts/posts.server";
import { requireUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Мои публикации");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const posts = await listPosts(context.db, { authorId: user.id, reader: user }, parsePageParams(new URL(request.url).searchParams));
  return {
    posts,
    bookmarkedIds: await bookmarkedPostIds(
      context.db,
      user.id,
      posts.items.map((p) => p.id),
    ),
  };
}

export default function MyPostsPage({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-heading text-3xl font-extrabold">Мои публикации</h1>
        <Button asChild>
          <Link to="/posts/new">Написать пост</Link>
        </Button>
      </div>
      <PostList posts={loaderData.posts.items} bookmarkedIds={loaderData.bookmarkedIds} empty="Вы ещё ничего не опубликовали." />
      <Pagination
        page={loaderData.posts.page}
        totalPages={loaderData.posts.totalPages}
        makeHref={(p) => withSearchParam("/profile/posts", location.search, "page", p)}
      />
    </div>
  );
}
