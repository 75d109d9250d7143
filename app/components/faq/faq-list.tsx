/**
 * The questions of /faq (issue 11): sections with their questions as <details>/<summary>, so
 * they open and close without JavaScript; every section and question has an anchor. The list is
 * filtered by the same rule on the server (`?q=`) and in the browser (as one types): filter.ts.
 */
import { Link as LinkIcon } from "lucide-react";
import { filterWords, matchesFilter } from "~/domain/faq/filter";
import type { FaqSectionDto } from "~/domain/faq/types";

/** The sections and questions matching `query` (sections left empty are dropped). */
export function filterFaq(sections: FaqSectionDto[], query: string): FaqSectionDto[] {
  const words = filterWords(query);
  if (words.length === 0) return sections;
  return sections
    .map((section) => ({ ...section, entries: section.entries.filter((entry) => matchesFilter(entry.filterText, words)) }))
    .filter((section) => section.entries.length > 0);
}

export function FaqList({ sections, openAll }: { sections: FaqSectionDto[]; openAll: boolean }) {
  return (
    <div className="grid gap-8" data-testid="faq-sections">
      {sections.map((section) => (
        <section key={section.id} id={section.slug} aria-labelledby={`${section.slug}-title`} className="grid scroll-mt-24 gap-3">
          <h2 id={`${section.slug}-title`} className="font-heading text-2xl font-bold">
            <a href={`#${section.slug}`} className="hover:text-primary">
              {section.title}
            </a>
          </h2>
          <div className="grid gap-2">
            {section.entries.map((entry) => (
              <details
                key={`${entry.id}-${openAll}`}
                id={entry.anchor}
                open={openAll || undefined}
                className="group scroll-mt-24 rounded-xl border border-border bg-card shadow-sm open:border-primary/40"
                data-testid="faq-entry"
              >
                <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-xl px-5 py-4 font-semibold hover:bg-accent/50 [&::-webkit-details-marker]:hidden">
                  <span>{entry.question}</span>
                  <span aria-hidden className="mt-0.5 text-muted-foreground transition-transform group-open:rotate-45">
                    +
                  </span>
                </summary>
                <div className="grid gap-3 px-5 pb-5">
                  <div className="prose-post text-[0.95rem]" dangerouslySetInnerHTML={{ __html: entry.answerHtml }} />
                  <a href={`#${entry.anchor}`} className="flex w-fit items-center gap-1 text-xs text-muted-foreground hover:text-primary">
                    <LinkIcon aria-hidden className="size-3" /> Ссылка на этот вопрос
                  </a>
                </div>
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
