/** /profile/bookmarks: the member's bookmarked posts, the most recently bookmarked first (sign-in required; docs/product/content.md#bookmarks). */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/bookmarks";
import { PostList } from "~/components/posts/post-card";
import { Pagination } from "~/components/ui/pagination";
import { listBookmarks } from "~/domain/bookmarks/bookmarks.server";
import { requireUser } from "~/lib/auth.server";
import { formatCount, plural } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Закладки");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  return { bookmarks: await listBookmarks(context.db, user.id, parsePageParams(new URL(request.url).searchParams)) };
}

export default function BookmarksPage({ loaderData }: Route.ComponentProps) {
  const { bookmarks } = loaderData;
  const location = useLocation();
  const posts = bookmarks.items.map((b) => b.post);
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Закладки</h1>
        <p className="mt-1 text-muted-foreground">
          {bookmarks.total > 0
            ? `${formatCount(bookmarks.total)} ${plural(bookmarks.total, ["пост", "поста", "постов"])} в закладках, новые сверху.`
            : "Сохраняйте посты, чтобы вернуться к ним позже."}
        </p>
      </div>
      {posts.length === 0 && bookmarks.total > 0 ? (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">
          На этой странице закладок больше нет.{" "}
          <Link to="/profile/bookmarks" className="text-primary hover:underline">
            К первой странице
          </Link>
        </p>
      ) : (
        <PostList
          posts={posts}
          bookmarkedIds={new Set(posts.map((p) => p.id))}
          empty="В закладках пока пусто. Нажмите «В закладки» под постом, чтобы сохранить его здесь."
        />
      )}
      <Pagination page={bookmarks.page} totalPages={bookmarks.totalPages} makeHref={(p) => withSearchParam("/profile/bookmarks", location.search, "page", p)} />
    </div>
  );
}
