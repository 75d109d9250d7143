/**
 * /search (docs/product/content.md#search; issue 3 item 6): full-text search of posts in Russian, filtered by the
 * category query value, whose background follows docs/product/content.md#category-backgrounds. A GET form, so it works without
 * JavaScript; the results are plain links and pagination links.
 */
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { SearchX, Sparkles } from "lucide-react";
import type { Route } from "./+types/search";
import { PostList } from "~/components/posts/post-card";
import { SearchForm } from "~/components/search/search-form";
import { PeopleMatches, SearchHit } from "~/components/search/search-results";
import { Pagination } from "~/components/ui/pagination";
import { findCategory } from "~/domain/posts/categories";
import { listPosts } from "~/domain/posts/posts.server";
import { searchProfiles } from "~/domain/search/people.server";
import { looksLikeUsername, parseSearchParams, searchBackgroundFor, searchBackgroundUrl } from "~/domain/search/query";
import { listPopularCategories, searchPosts, type CategoryCountDto } from "~/domain/search/search.server";
import { pageMeta } from "~/lib/meta";
import { formatCount, plural } from "~/lib/format";
import { withSearchParam } from "~/lib/url";

const EXAMPLES = ["сделка через гаранта", "аккаунт Steam", "USDT", "видеокарты", "майнинг"];

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta(matches, data?.q ? `«${data.q}» — поиск` : "Поиск", "Поиск по постам и статьям сообщества.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { q, categoryId, page, perPage } = parseSearchParams(new URL(request.url).searchParams);
  const background = searchBackgroundFor(categoryId);
  if (q === "") {
    // No query: suggest where to look, and show what is new in the chosen category.
    const [popular, latest] = await Promise.all([
      listPopularCategories(context.db),
      categoryId === undefined ? null : listPosts(context.db, { categoryId }, { page, perPage }),
    ]);
    return { q, categoryId, background, results: null, people: null, popular, latest };
  }
  const [results, people] = await Promise.all([
    searchPosts(context.db, { q, categoryId }, { page, perPage }),
    page === 1 && looksLikeUsername(q) ? searchProfiles(context.db, q, { page: 1, perPage: 6 }) : null,
  ]);
  const popular = results.total === 0 ? await listPopularCategories(context.db) : [];
  return { q, categoryId, background, results, people, popular, latest: null };
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { q, categoryId, background, results, people, popular, latest } = loaderData;
  const location = useLocation();
  const pageHref = (p: number) => withSearchParam("/search", location.search, "page", p);
  const category = categoryId === undefined ? undefined : findCategory(categoryId);

  return (
    <div className="grid gap-6">
      <section
        data-testid="search-header"
        data-background={background ?? "default"}
        className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary to-primary/60 bg-cover bg-center px-6 py-10 text-primary-foreground shadow-lg sm:px-10"
        style={background ? { backgroundImage: `url("${searchBackgroundUrl(background)}")` } : undefined}
      >
        <h1 className="font-heading text-3xl font-extrabold drop-shadow-sm sm:text-4xl">Поиск</h1>
        <p className="mt-2 mb-5 max-w-2xl text-base/relaxed opacity-90">
          {category ? `Ищем в категории «${category.name}».` : "Посты и статьи сообщества: любые формы слов, «фразы в кавычках», -исключения."}
        </p>
        <SearchForm q={q} categoryId={categoryId} />
      </section>

      {people && people.items.length > 0 ? <PeopleMatches people={people.items} total={people.total} /> : null}

      {results ? (
        <section aria-labelledby="search-results-title" className="grid gap-4">
          <h2 id="search-results-title" className="text-sm text-muted-foreground" aria-live="polite">
            {results.more
              ? `Найдено больше ${formatCount(results.total)} публикаций по запросу «${q}»: показаны самые новые, лучшие совпадения первыми`
              : results.total > 0
                ? `Найдено ${formatCount(results.total)} ${plural(results.total, ["публикация", "публикации", "публикаций"])} по запросу «${q}»`
                : `Публикаций по запросу «${q}» не найдено`}
          </h2>
          {results.total > 0 ? (
            <>
              {results.items.length === 0 ? (
                <p className="rounded-xl border border-dashed border-border p-8 text-center text-muted-foreground">
                  На этой странице результатов нет.{" "}
                  <Link to={pageHref(1)} className="text-primary hover:underline">
                    К первой странице
                  </Link>
                </p>
              ) : (
                <div className="grid gap-4">
                  {results.items.map((hit) => (
                    <SearchHit key={hit.id} hit={hit} />
                  ))}
                </div>
              )}
              <Pagination page={results.page} totalPages={results.totalPages} makeHref={pageHref} />
            </>
          ) : people && people.items.length > 0 ? null : (
            <NothingFound searchable={results.searchable} category={category?.name} q={q} popular={popular} />
          )}
        </section>
      ) : (
        <section className="grid gap-6">
          {latest ? (
            <div className="grid gap-4">
              <h2 className="font-heading text-xl font-bold">Свежее в категории «{category?.name}»</h2>
              <PostList posts={latest.items} empty="В этой категории пока нет публикаций." />
              <Pagination page={latest.page} totalPages={latest.totalPages} makeHref={pageHref} />
            </div>
          ) : (
            <Suggestions popular={popular} />
          )}
        </section>
      )}
    </div>
  );
}

/** The empty state: example queries and the busiest categories, all plain links. */
function Suggestions({ popular }: { popular: CategoryCountDto[] }) {
  return (
    <div className="grid gap-6 rounded-xl border border-dashed border-border p-8" data-testid="search-empty">
      <div className="flex items-start gap-3">
        <Sparkles aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
        <div>
          <h2 className="font-heading text-lg font-bold">Что будем искать?</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Введите слово или фразу — найдём посты и статьи с любыми их формами: по запросу «сделки» найдётся и «сделка».
          </p>
          <ul className="mt-3 flex flex-wrap gap-2 text-sm">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <Link to={`/search?q=${encodeURIComponent(example)}`} className="rounded-full border border-border bg-card px-3 py-1 hover:border-primary/50">
                  {example}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <PopularCategories popular={popular} />
    </div>
  );
}

function PopularCategories({ popular }: { popular: CategoryCountDto[] }) {
  if (popular.length === 0) return null;
  return (
    <nav aria-labelledby="popular-categories-title">
      <h3 id="popular-categories-title" className="text-sm font-semibold">
        Популярные категории
      </h3>
      <ul className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {popular.map((category) => (
          <li key={category.id}>
            <Link
              to={`/search?category=${category.id}`}
              className="flex items-center justify-between rounded-lg border border-border bg-card px-4 py-3 text-sm transition-colors hover:border-primary/50"
            >
              <span className="font-medium">{category.name}</span>
              <span className="text-muted-foreground">
                {formatCount(category.postCount)} {plural(category.postCount, ["публикация", "публикации", "публикаций"])}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function NothingFound({ searchable, category, q, popular }: { searchable: boolean; category: string | undefined; q: string; popular: CategoryCountDto[] }) {
  return (
    <div className="grid gap-6 rounded-xl border border-dashed border-border p-8" data-testid="search-nothing">
      <div className="flex items-start gap-3">
        <SearchX aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="text-sm text-muted-foreground">
          {searchable ? (
            <p>
              {/(^|\s)-\S/.test(q) ? "Попробуйте другие слова или уберите минус-слова." : "Попробуйте другие слова или более общий запрос."}
              {category ? (
                <>
                  {" "}
                  Или поищите{" "}
                  <Link to={`/search?q=${encodeURIComponent(q)}`} className="text-primary hover:underline">
                    во всех категориях
                  </Link>
                  , а не только в «{category}».
                </>
              ) : null}
            </p>
          ) : (
            <p>В запросе нет слов для поиска: только очень частые слова («и», «в», «на») или знаки препинания. Добавьте что-нибудь конкретное.</p>
          )}
        </div>
      </div>
      <PopularCategories popular={popular} />
    </div>
  );
}
