/** The home feed `/` (issue 2): the admin's background image, category filter, 10 posts a page. */
import { data, Form, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Route } from "./+types/home";
import { CategoryFilter } from "~/components/posts/category-filter";
import { PostList } from "~/components/posts/post-card";
import { OnlineMembers } from "~/components/search/online-members";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { findCategory, parseCategoryParam } from "~/domain/posts/categories";
import { listPosts } from "~/domain/posts/posts.server";
import { countOnlineProfiles, listOnlineProfiles } from "~/domain/search/people.server";
import { BackgroundSchema, getMainPageBackground, setMainPageBackground } from "~/domain/settings/settings.server";
import { getOptionalUser, requireUser } from "~/lib/auth.server";
import { bookmarkedPostIds } from "~/domain/bookmarks/bookmarks.server";
import { validateCsrf } from "~/lib/csrf.server";
import { pageData } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { pageMeta } from "~/lib/meta";
import { parsePageParams } from "~/lib/pagination";
import { useRootData } from "~/root-data";
import { redirectWithToast } from "~/lib/toast.server";
import { withSearchParam } from "~/lib/url";
import { optimizedImageUrl } from "~/lib/images/widths";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Главная", "Сообщество: торговля, игры, криптовалюта, гарант-сервис и честные сделки.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const categoryId = parseCategoryParam(url.searchParams.get("category"));
  const viewer = await getOptionalUser(context, request);
  const [feed, background, online, onlineTotal] = await Promise.all([
    // Pinned posts lead the unfiltered home feed (issue 10).
    listPosts(context.db, { categoryId, reader: viewer, pinnedFirst: categoryId === undefined }, parsePageParams(url.searchParams)),
    getMainPageBackground(context.db),
    listOnlineProfiles(context.db, 24),
    countOnlineProfiles(context.db),
  ]);
  const bookmarkedIds = await bookmarkedPostIds(
    context.db,
    viewer?.id ?? null,
    feed.items.map((p) => p.id),
  );
  return { feed, background, categoryId, online, onlineTotal, bookmarkedIds };
}

/** Admins set the main-page background here (docs/product/routes.md#main-page-background). */
export async function action({ request, context }: Route.ActionArgs) {
  return pageData(async () => {
    await validateCsrf(request);
    const admin = await requireUser(context, request);
    const parsed = BackgroundSchema.safeParse(Object.fromEntries(await readForm(request)));
    if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Неверная ссылка" }, { status: 400 });
    await setMainPageBackground(context.db, admin, parsed.data.value);
    return redirectWithToast("/", { title: "Фон главной обновлён" });
  });
}

export default function HomePage({ loaderData, actionData }: Route.ComponentProps) {
  const { feed, background, categoryId, online, bookmarkedIds } = loaderData;
  const location = useLocation();
  const viewer = useRootData()?.viewer;
  return (
    <div className="grid gap-8">
      <section
        data-testid="main-background"
        className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary to-primary/60 bg-cover bg-center px-6 py-12 text-primary-foreground shadow-lg sm:px-10"
        style={
          background
            ? {
                backgroundImage: `linear-gradient(90deg, rgb(20 10 50 / 0.65), rgb(20 10 50 / 0.15)), url("${optimizedImageUrl(background, { width: 1536 })}")`,
              }
            : undefined
        }
      >
        <h1 className="font-heading text-3xl font-extrabold sm:text-4xl">Сообщество, где сделки проходят честно</h1>
        <p className="mt-3 max-w-2xl text-base/relaxed opacity-90">
          Торговля, игры и криптовалюта. Публичные депозиты, гарант-сервис и чёрный список мошенников — чтобы вы знали, с кем имеете дело.
        </p>
      </section>

      {viewer?.role === "admin" ? (
        <details className="rounded-xl border border-border bg-card p-4 text-sm">
          <summary className="cursor-pointer font-medium">Фон главной страницы</summary>
          <Form method="post" className="mt-3 flex flex-wrap gap-2">
            <AuthenticityTokenInput />
            <Input name="value" defaultValue={background ?? ""} placeholder="https://… или /images/…" className="max-w-md" aria-label="Ссылка на изображение" />
            <Button type="submit" variant="secondary">
              Сохранить
            </Button>
            {actionData?.error ? <p className="w-full text-destructive">{actionData.error}</p> : null}
          </Form>
        </details>
      ) : null}

      <section className="grid gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="font-heading text-2xl font-bold">{categoryId ? findCategory(categoryId)?.name : "Лента"}</h2>
          <p className="text-sm text-muted-foreground">Всего публикаций: {feed.total}</p>
        </div>
        <CategoryFilter basePath="/" current={categoryId} />
        <PostList posts={feed.items} bookmarkedIds={bookmarkedIds} empty="Здесь пока нет постов. Станьте первым!" />
        <Pagination page={feed.page} totalPages={feed.totalPages} makeHref={(p) => withSearchParam("/", location.search, "page", p)} />
      </section>

      <OnlineMembers members={online} total={loaderData.onlineTotal} />
    </div>
  );
}
