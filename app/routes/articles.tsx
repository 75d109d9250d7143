/** /articles: posts of kind "article", newest first (docs/product/content.md#posts). */
import { useLocation } from "react-router";
import type { Route } from "./+types/articles";
import { CategoryFilter } from "~/components/posts/category-filter";
import { PostList } from "~/components/posts/post-card";
import { Pagination } from "~/components/ui/pagination";
import { parseCategoryParam } from "~/domain/posts/categories";
import { bookmarkedPostIds } from "~/domain/bookmarks/bookmarks.server";
import { listPosts } from "~/domain/posts/posts.server";
import { getOptionalUser } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Статьи", "Гайды, обзоры и разборы от участников сообщества.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const categoryId = parseCategoryParam(url.searchParams.get("category"));
  const [articles, viewer] = await Promise.all([
    listPosts(context.db, { kind: "article", categoryId }, parsePageParams(url.searchParams)),
    getOptionalUser(context, request),
  ]);
  const bookmarkedIds = await bookmarkedPostIds(
    context.db,
    viewer?.id ?? null,
    articles.items.map((p) => p.id),
  );
  return { articles, categoryId, bookmarkedIds };
}

export default function ArticlesPage({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="font-heading text-3xl font-extrabold">Статьи</h1>
        <p className="mt-1 text-muted-foreground">Гайды, обзоры и разборы от участников сообщества.</p>
      </div>
      <CategoryFilter basePath="/articles" current={loaderData.categoryId} />
      <PostList posts={loaderData.articles.items} bookmarkedIds={loaderData.bookmarkedIds} empty="Статей в этой категории пока нет." />
      <Pagination
        page={loaderData.articles.page}
        totalPages={loaderData.articles.totalPages}
        makeHref={(p) => withSearchParam("/articles", location.search, "page", p)}
      />
    </div>
  );
}
