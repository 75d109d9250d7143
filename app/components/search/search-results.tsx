import { Link } from "~/components/ui/link";
import { Icon } from "~/components/ui/icon";
import { PostCounters } from "~/components/posts/post-counters";
import { Avatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { RankBadges } from "~/components/users/rank-badges";
import type { PostSearchHitDto } from "~/domain/search/search.server";
import type { UserRefDto } from "~/domain/users/users.server";
import { formatDate } from "~/lib/format";
import { isScammer, MemberAvatar, MemberName, TrustHoverCard } from "~/components/users/trust-card";

const markClass = "[&_mark]:rounded-sm [&_mark]:bg-primary/15 [&_mark]:px-0.5 [&_mark]:font-semibold [&_mark]:text-foreground";

/**
 * One search result: title and body fragments with the matched words highlighted.
 * `titleHtml` and `snippetHtml` come from highlightToHtml: escaped text plus <mark> only.
 */
export function SearchHit({ hit }: { hit: PostSearchHitDto }) {
  return (
    <article className="rounded-xl border border-border bg-card p-5 shadow-sm transition-shadow hover:shadow-md" data-testid="search-hit">
      <h2 className={`font-heading text-lg font-bold leading-snug ${markClass}`}>
        {hit.kind === "article" ? <Icon name="file-text" aria-label="Статья" className="mr-1.5 inline size-4 text-primary" /> : null}
        <Link to={`/post/${hit.id}`} className="tap-target hover:text-primary" dangerouslySetInnerHTML={{ __html: hit.titleHtml }} />
      </h2>
      <p className={`mt-2 text-sm text-muted-foreground ${markClass}`} dangerouslySetInnerHTML={{ __html: hit.snippetHtml }} />
      <footer className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-2">
          <MemberAvatar member={hit.author} />
          <MemberName member={hit.author} className="text-foreground" />
          <RankBadges ranks={hit.author.ranks} />
        </span>
        <time dateTime={hit.createdAt}>{formatDate(hit.createdAt)}</time>
        <Link to={`/search?category=${hit.category.id}`} className="tap-target shrink-0">
          <Badge variant="secondary">{hit.category.name}</Badge>
        </Link>
        <span className="ml-auto inline-flex gap-4">
          <PostCounters post={hit} />
        </span>
      </footer>
    </article>
  );
}

/** Members whose username matches the query, shown above the posts on /search. */
export function PeopleMatches({ people, total }: { people: UserRefDto[]; total: number }) {
  if (people.length === 0) return null;
  return (
    <section aria-labelledby="people-matches-title" className="grid gap-3" data-testid="people-matches">
      <h2 id="people-matches-title" className="font-heading text-lg font-bold">
        Участники{" "}
        {total > people.length ? (
          <span className="text-sm font-normal text-muted-foreground">
            (показаны {people.length} из {total})
          </span>
        ) : null}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {people.map((person) => (
          <li key={person.id}>
            <Link
              to={`/profile/${person.id}`}
              className="flex items-center gap-2 rounded-full border border-border bg-card py-1 pr-4 pl-1 text-sm shadow-xs transition-colors hover:border-primary/50"
            >
              <TrustHoverCard member={person}>
                <Avatar username={person.username} src={person.image} size="sm" overlay={isScammer(person) ? "scam" : undefined} />
              </TrustHoverCard>
              <span className="grid leading-tight">
                <span className="font-semibold">{person.username}</span>
                {person.displayName ? <span className="text-xs text-muted-foreground">{person.displayName}</span> : null}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
