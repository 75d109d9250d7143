import { Form } from "~/components/ui/link";
import { Search } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { CATEGORIES } from "~/domain/posts/categories";
import { MAX_QUERY_LENGTH } from "~/domain/search/query";

/**
 * The search box of /search: a GET form (works without JavaScript; with it, a client-side
 * navigation) with the query `q` and the category select of docs/product/content.md#search.
 */
export function SearchForm({ q, categoryId }: { q: string; categoryId: number | undefined }) {
  return (
    // The key resets the fields when a link (a category chip, an example query) changes the URL.
    <Form key={`${q}|${categoryId ?? ""}`} method="get" action="/search" role="search" className="flex flex-col gap-2 sm:flex-row">
      <label htmlFor="search-q" className="sr-only">
        Что ищем
      </label>
      <div className="relative flex-1">
        <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id="search-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_QUERY_LENGTH}
          placeholder="Например: сделка через гаранта"
          autoComplete="off"
          className="h-11 bg-background/95 pl-9 text-foreground"
        />
      </div>
      <label htmlFor="search-category" className="sr-only">
        Категория
      </label>
      <select
        id="search-category"
        name="category"
        defaultValue={categoryId ?? ""}
        className="h-11 rounded-md border border-input bg-background/95 px-3 text-sm text-foreground shadow-xs focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none"
      >
        <option value="">Все категории</option>
        {CATEGORIES.map((category) => (
          <option key={category.id} value={category.id}>
            {category.name}
          </option>
        ))}
      </select>
      <Button type="submit" size="lg" className="h-11 px-6">
        Найти
      </Button>
    </Form>
  );
}
