/**
 * /faq (public; issue 11, docs/product/pages.md): the site's questions and answers. The filter
 * box narrows the list as one types (JavaScript) or on «Найти» through `?q=` (the server renders
 * the filtered list, so it works without JavaScript). Questions are <details>; opening
 * /faq#{anchor} opens that question.
 */
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { Form, Link } from "~/components/ui/link";
import { Search, Settings } from "lucide-react";
import type { Route } from "./+types/index";
import { FaqList, filterFaq } from "~/components/faq/faq-list";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { getPublishedFaq } from "~/domain/faq/faq.server";
import { MAX_FILTER_LENGTH } from "~/domain/faq/types";
import { getSiteRules } from "~/domain/moderation/settings.server";
import { isAdminRole } from "~/domain/users/roles-admin";
import { getOptionalUser } from "~/lib/auth.server";
import { plural } from "~/lib/format";
import { pageMeta } from "~/lib/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Вопросы и ответы", "Правила сайта, депозиты, гарант-сервис, претензии и чёрный список: ответы на частые вопросы.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, MAX_FILTER_LENGTH);
  const [faq, user, rules] = await Promise.all([getPublishedFaq(context.db), getOptionalUser(context, request), getSiteRules(context.db)]);
  return {
    sections: faq.sections,
    total: faq.total,
    query,
    isAdmin: isAdminRole(user?.role),
    // The site rules of /admin/settings (docs/product/moderation.md#settings), sanitised HTML or null.
    siteRulesHtml: rules.html || null,
  };
}

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  const { sections, total, isAdmin, siteRulesHtml } = loaderData;
  const [query, setQuery] = useState(loaderData.query);
  useEffect(() => setQuery(loaderData.query), [loaderData.query]);
  // Words typed before the page's script started (docs/decisions/0057) raised no change React saw.
  const filterInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typed = filterInput.current?.value;
    if (typed !== undefined && typed !== loaderData.query) setQuery(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once on hydration: later typing goes through onChange.
  }, []);
  useOpenQuestionFromHash();
  const shown = filterFaq(sections, query);
  const shownCount = shown.reduce((n, section) => n + section.entries.length, 0);
  const filtering = query.trim() !== "";
  return (
    <div className="mx-auto grid max-w-3xl gap-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-heading text-3xl font-extrabold">Вопросы и ответы</h1>
          <p className="mt-1 text-muted-foreground">Как устроены депозиты, гарант-сервис, претензии и чёрный список — и какие правила действуют на сайте.</p>
        </div>
        {isAdmin ? (
          <Button asChild variant="outline">
            <Link to="/admin/faq">
              <Settings aria-hidden /> Редактировать
            </Link>
          </Button>
        ) : null}
      </div>
      <SiteRules html={siteRulesHtml} />
      <Form method="get" role="search" className="flex gap-2" data-testid="faq-filter">
        <label htmlFor="faq-q" className="sr-only">
          Найти вопрос
        </label>
        <div className="relative flex-1">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            id="faq-q"
            ref={filterInput}
            name="q"
            type="search"
            value={query}
            maxLength={MAX_FILTER_LENGTH}
            onChange={(event) => setQuery(event.currentTarget.value)}
            placeholder="Например: вывод депозита"
            className="pl-9"
            autoComplete="off"
          />
        </div>
        <Button type="submit" variant="secondary">
          Найти
        </Button>
      </Form>
      {filtering ? (
        <p className="-mt-4 text-sm text-muted-foreground" role="status" data-testid="faq-filter-status">
          {shownCount > 0
            ? `Найдено ${shownCount} ${plural(shownCount, ["вопрос", "вопроса", "вопросов"])} из ${total}.`
            : "Ничего не нашлось. Попробуйте другие слова или задайте вопрос в общем чате."}{" "}
          <Link to="/faq" onClick={() => setQuery("")} className="font-medium text-primary hover:underline">
            Показать все
          </Link>
        </p>
      ) : null}
      {total === 0 ? <p className="text-muted-foreground">Вопросов пока нет.</p> : <FaqList sections={shown} openAll={filtering} />}
    </div>
  );
}

/** The site rules above the questions, when the lead wires them (see the loader). */
function SiteRules({ html }: { html: string | null }) {
  if (!html) return null;
  return (
    <section id="pravila" aria-labelledby="pravila-title" className="rounded-2xl border border-border bg-card p-6 shadow-sm" data-testid="site-rules">
      <h2 id="pravila-title" className="mb-3 font-heading text-2xl font-bold">
        Правила сайта
      </h2>
      <div className="prose-post" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}

/** /faq#{anchor}: opens that question and brings it into view, on load and on every hash change. */
function useOpenQuestionFromHash() {
  const { hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) return;
    const target = document.getElementById(id);
    if (target instanceof HTMLDetailsElement) {
      target.open = true;
      target.scrollIntoView({ block: "start" });
    }
  }, [hash]);
}
