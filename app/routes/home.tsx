/**
 * The home feed `/` (issue 2): the admin's background image (set at /admin/settings), category
 * filter, 10 posts a page, and the running ads of every placement (docs/product/pages.md#ads):
 * under the header, in the feed after their slot's number of posts, and in the sidebar block;
 * each shown ad counts an impression.
 */
import { preload } from "react-dom";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/home";
import { AdCard, AdPlacementBlock } from "~/components/ads/ad-slot";
import { CategoryFilter } from "~/components/posts/category-filter";
import { PostList } from "~/components/posts/post-card";
import { OnlineMembers } from "~/components/search/online-members";
import { Pagination } from "~/components/ui/pagination";
import { formatCount } from "~/lib/format";
import { findCategory, parseCategoryParam } from "~/domain/posts/categories";
import { listRunningAds } from "~/domain/ads/ad-listings.server";
import { queueImpressions } from "~/domain/ads/impression-buffer.server";
import type { RunningAdDto } from "~/domain/ads/types";
import { listPosts } from "~/domain/posts/posts.server";
import { listOnlineProfiles } from "~/domain/search/people.server";
import { getMainPageBackground } from "~/domain/settings/settings.server";
import { getOptionalUser } from "~/lib/auth.server";
import { bookmarkedPostIds } from "~/domain/bookmarks/bookmarks.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { useRootData } from "~/root-data";
import { withSearchParam } from "~/lib/url";
import { siteImageUrl } from "~/lib/images/site-image";
import { getStorage } from "~/lib/storage/storage.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Главная", "Сообщество: торговля, игры, криптовалюта, гарант-сервис и честные сделки.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const categoryId = parseCategoryParam(url.searchParams.get("category"));
  const viewer = await getOptionalUser(context, request);
  const [feed, background, online, ads] = await Promise.all([
    // Pinned posts lead the unfiltered home feed (issue 10).
    listPosts(context.db, { categoryId, reader: viewer, pinnedFirst: categoryId === undefined }, parsePageParams(url.searchParams)),
    getMainPageBackground(context.db),
    listOnlineProfiles(context.db, 24),
    listRunningAds(context.db, getStorage(context.config)),
  ]);
  queueImpressions(
    context.db,
    ads.map((ad) => ad.id),
  );
  const bookmarkedIds = await bookmarkedPostIds(
    context.db,
    viewer?.id ?? null,
    feed.items.map((p) => p.id),
  );
  // Only pictures this site serves get past the CSP (img-src 'self'; issue 13 item 11).
  const backgroundSrc = background ? siteImageUrl(background, 1536, context.config.publicUrl, context.config.imageAllowedHosts) : null;
  return { feed, background, backgroundSrc, categoryId, online: online.members, onlineTotal: online.total, bookmarkedIds, ads };
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { feed, backgroundSrc, categoryId, online, bookmarkedIds, ads } = loaderData;
  const location = useLocation();
  const viewer = useRootData()?.viewer;
  // The background is the page's largest paint: asked for beside the stylesheet, not after it is applied (docs/decisions/0032).
  if (backgroundSrc) preload(backgroundSrc, { as: "image", fetchPriority: "high" });
  return (
    <div className="grid grid-cols-1 gap-8">
      <AdPlacementBlock ads={ads} placement="header" />
      <section
        data-testid="main-background"
        className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary to-primary/60 bg-cover bg-center px-6 py-12 text-primary-foreground shadow-lg sm:px-10 dark:from-primary/45 dark:to-primary/15 dark:text-foreground"
        style={backgroundSrc ? { backgroundImage: `linear-gradient(90deg, rgb(20 10 50 / 0.65), rgb(20 10 50 / 0.15)), url("${backgroundSrc}")` } : undefined}
      >
        <h1 className="font-heading text-3xl font-extrabold sm:text-4xl">Сообщество, где сделки проходят честно</h1>
        <p className="mt-3 max-w-2xl text-base/relaxed opacity-90">
          Торговля, игры и криптовалюта. Публичные депозиты, гарант-сервис и чёрный список мошенников — чтобы вы знали, с кем имеете дело.
        </p>
      </section>

      {viewer?.role === "admin" ? (
        <p className="-mt-6 text-right text-sm">
          <Link to="/admin/settings#background-title" className="tap-target text-muted-foreground hover:text-foreground hover:underline">
            Изменить фон главной
          </Link>
        </p>
      ) : null}

      <section className="grid grid-cols-1 gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="font-heading text-2xl font-bold">{categoryId ? findCategory(categoryId)?.name : "Лента"}</h2>
          <p className="text-sm text-muted-foreground">Всего публикаций: {feed.more ? `больше ${formatCount(feed.total)}` : formatCount(feed.total)}</p>
        </div>
        <CategoryFilter basePath="/" current={categoryId} />
        <FeedWithAds posts={feed.items} ads={ads} bookmarkedIds={bookmarkedIds} />
        <Pagination page={feed.page} totalPages={feed.totalPages} makeHref={(p) => withSearchParam("/", location.search, "page", p)} />
      </section>

      <AdPlacementBlock ads={ads} placement="sidebar" />
      <OnlineMembers members={online} total={loaderData.onlineTotal} />
    </div>
  );
}

/** The feed's posts with each feed ad after its slot's number of posts (or after the last post of a shorter page). */
function FeedWithAds({
  posts,
  ads,
  bookmarkedIds,
}: {
  posts: Parameters<typeof PostList>[0]["posts"];
  ads: RunningAdDto[];
  bookmarkedIds: ReadonlySet<number>;
}) {
  const feedAds = ads.filter((ad) => ad.placement === "feed");
  const empty = "Здесь пока нет постов. Станьте первым!";
  if (feedAds.length === 0 || posts.length === 0) return <PostList posts={posts} bookmarkedIds={bookmarkedIds} empty={empty} />;
  const cuts = [...new Set(feedAds.map((ad) => Math.min(ad.feedPosition ?? 0, posts.length)))].sort((a, b) => a - b);
  const parts: React.ReactNode[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut > from) parts.push(<PostList key={`posts-${from}`} posts={posts.slice(from, cut)} bookmarkedIds={bookmarkedIds} empty={empty} />);
    for (const ad of feedAds.filter((item) => Math.min(item.feedPosition ?? 0, posts.length) === cut)) parts.push(<AdCard key={`ad-${ad.id}`} ad={ad} />);
    from = cut;
  }
  if (from < posts.length) parts.push(<PostList key={`posts-${from}`} posts={posts.slice(from)} bookmarkedIds={bookmarkedIds} empty={empty} />);
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="ads-feed">
      {parts}
    </div>
  );
}
