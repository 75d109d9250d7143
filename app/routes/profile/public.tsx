/** /profile/{id}: a member's public profile: relations, achievements, wall and posts (bare layout, docs/product/routes.md#pages). */
import { useLocation } from "react-router";
import { ReportButton } from "~/components/moderation/report-button";
import type { Route } from "./+types/public";
import { AchievementList } from "~/components/achievements/achievement-list";
import { FileClaimLink } from "~/components/claims/file-claim-link";
import { StartConversationButton } from "~/components/conversations/start-conversation-button";
import { DepositBadge } from "~/components/wallet/deposit-badge";
import { getBalances } from "~/domain/ledger/balances.server";
import { ProfileRelations } from "~/components/people/profile-relations";
import { PostList } from "~/components/posts/post-card";
import { Pagination } from "~/components/ui/pagination";
import { ProfileHeader } from "~/components/users/profile-header";
import { WallSection } from "~/components/wall/wall-section";
import { listUserAchievements } from "~/domain/achievements/achievements.server";
import { getProfileRelations } from "~/domain/people/relations.server";
import { bookmarkedPostIds } from "~/domain/bookmarks/bookmarks.server";
import { listPosts } from "~/domain/posts/posts.server";
import { getProfile } from "~/domain/users/users.server";
import { loadWall, wallForPage } from "~/domain/wall/wall.server";
import { getOptionalUser } from "~/lib/auth.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta(matches, data ? `Профиль ${data.profile.username}` : "Профиль не найден", data?.profile.bio);

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return pageData(async () => {
    const id = Number(params.id);
    const search = new URL(request.url).searchParams;
    const [profile, viewer] = await Promise.all([getProfile(context.db, id), getOptionalUser(context, request)]);
    const viewerId = viewer?.id ?? null;
    const [posts, relations, achievements, wall] = await Promise.all([
      listPosts(context.db, { authorId: id, reader: viewer }, parsePageParams(search)),
      getProfileRelations(context.db, viewerId, id),
      listUserAchievements(context.db, id),
      // The wall pages with its own key, so paging the posts leaves the wall where it was.
      loadWall(context.db, viewer, id, parsePageParams(new URLSearchParams({ page: search.get("wallPage") ?? "1" }))),
    ]);
    const bookmarkedIds = await bookmarkedPostIds(
      context.db,
      viewerId,
      posts.items.map((p) => p.id),
    );
    const { deposit } = await getBalances(context.db, id);
    return { profile, posts, relations, achievements, wall: wallForPage(wall), viewerId, bookmarkedIds, deposit };
  });
}

export default function PublicProfilePage({ loaderData }: Route.ComponentProps) {
  const { profile, posts, relations, achievements, wall, viewerId, bookmarkedIds, deposit } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-8">
      <ProfileHeader profile={profile}>
        <DepositBadge deposit={deposit} />
        {viewerId !== null && viewerId !== profile.id && !relations.blocking && !relations.blockedByThem ? (
          <StartConversationButton profileId={profile.id} />
        ) : null}
        <ProfileRelations profile={profile} relations={relations} viewerId={viewerId} />
        {viewerId !== null && viewerId !== profile.id ? <FileClaimLink username={profile.username} /> : null}
        {viewerId !== profile.id ? <ReportButton type="profile" id={profile.id} authorId={profile.id} /> : null}
      </ProfileHeader>
      <AchievementList achievements={achievements} />
      <WallSection ownerId={profile.id} wall={wall} viewerId={viewerId} canWrite={viewerId !== null && !relations.blockedByThem} />
      <section className="grid gap-4">
        <h2 className="font-heading text-xl font-bold">Публикации</h2>
        <PostList posts={posts.items} bookmarkedIds={bookmarkedIds} empty={`${profile.username} пока ничего не опубликовал.`} />
        <Pagination page={posts.page} totalPages={posts.totalPages} makeHref={(p) => withSearchParam(location.pathname, location.search, "page", p)} />
      </section>
    </div>
  );
}
