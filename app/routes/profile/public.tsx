/** /profile/{id}: a member's public profile with their posts (bare layout, SPEC.md 2). */
import { useLocation } from "react-router";
import type { Route } from "./+types/public";
import { PostList } from "~/components/posts/post-card";
import { Pagination } from "~/components/ui/pagination";
import { ProfileHeader } from "~/components/users/profile-header";
import { listPosts } from "~/domain/posts/posts.server";
import { getProfile } from "~/domain/users/users.server";
import { pageData } from "~/lib/errors";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { withSearchParam } from "~/lib/url";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta(matches, data ? `Профиль ${data.profile.username}` : "Профиль не найден", data?.profile.bio);

export async function loader({ params, request, context }: Route.LoaderArgs) {
  return pageData(async () => {
    const id = Number(params.id);
    const profile = await getProfile(context.db, id);
    const posts = await listPosts(context.db, { authorId: id }, parsePageParams(new URL(request.url).searchParams));
    return { profile, posts };
  });
}

export default function PublicProfilePage({ loaderData }: Route.ComponentProps) {
  const { profile, posts } = loaderData;
  const location = useLocation();
  return (
    <div className="grid gap-8">
      <ProfileHeader profile={profile} />
      <section className="grid gap-4">
        <h2 className="font-heading text-xl font-bold">Публикации</h2>
        <PostList posts={posts.items} empty={`${profile.username} пока ничего не опубликовал.`} />
        <Pagination
          page={posts.page}
          totalPages={posts.totalPages}
          makeHref={(p) => withSearchParam(location.pathname, location.search, "page", p)}
        />
      </section>
    </div>
  );
}
