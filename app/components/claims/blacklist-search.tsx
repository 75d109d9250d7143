/**
 * The search box of /blacklist (docs/product/claims.md#blacklist-search): a GET form with `q`,
 * so it works without JavaScript (with it, a client-side navigation), and what was found.
 */
import { Search } from "lucide-react";
import { Form, Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { BLACKLIST_QUERY_MAX } from "~/domain/claims/blacklist-query";
import { formatCount, plural } from "~/lib/format";

export function BlacklistSearch({ q, total }: { q: string; total: number }) {
  return (
    <div className="grid gap-2">
      {/* The key resets the field when the URL's query changes (back, «Показать всех»). */}
      <Form key={q} method="get" action="/blacklist" role="search" className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="blacklist-q" className="sr-only">
          Поиск по чёрному списку
        </label>
        <div className="relative flex-1">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            id="blacklist-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={BLACKLIST_QUERY_MAX}
            placeholder="Имя пользователя, имя или причина"
            autoComplete="off"
            className="h-11 pl-9"
          />
        </div>
        <Button type="submit" size="lg" className="h-11 px-6">
          Найти
        </Button>
      </Form>
      {/* With nothing found the list's own message says so (BlacklistTable). */}
      {q !== "" && total > 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="blacklist-found">
          По запросу «{q}» {plural(total, ["найдена", "найдены", "найдено"])} {formatCount(total)} {plural(total, ["запись", "записи", "записей"])}.{" "}
          <Link to="/blacklist" className="font-medium text-primary hover:underline">
            Показать весь список
          </Link>
        </p>
      ) : null}
    </div>
  );
}
