import { Link } from "~/components/ui/link";
import { Avatar } from "~/components/ui/avatar";
import { hint } from "~/components/ui/hint";
import type { UserRefDto } from "~/domain/users/users.server";

/**
 * «Сейчас на сайте (N)» on the home page: members seen in the last 5 minutes
 * (docs/product/accounts.md#online-and-last-seen), each avatar a link to the profile with the name in a tooltip. `total` is the
 * whole count when `members` is only the first few; it defaults to their number.
 */
export function OnlineMembers({ members, total }: { members: UserRefDto[]; total?: number }) {
  const count = Math.max(total ?? members.length, members.length);
  return (
    <section aria-labelledby="online-members-title" className="rounded-xl border border-border bg-card p-5 shadow-sm" data-testid="online-members">
      <h2 id="online-members-title" className="flex items-center gap-2 font-heading text-lg font-bold">
        <span aria-hidden className="relative flex size-2.5">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60 motion-reduce:animate-none" />
          <span className="relative inline-flex size-2.5 rounded-full bg-success" />
        </span>
        Сейчас на сайте ({count})
      </h2>
      {members.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">Сейчас никого нет — загляните позже.</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-2">
          {members.map((member) => {
            const name = member.displayName ? `${member.displayName} (@${member.username})` : member.username;
            return (
              <li key={member.id}>
                <Link
                  to={`/profile/${member.id}`}
                  {...hint(name)}
                  aria-label={`Профиль: ${member.username}`}
                  className="inline-flex items-center justify-center rounded-full max-md:min-h-11 max-md:min-w-11 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none"
                >
                  <Avatar username={member.username} src={member.image} size="sm" overlay={member.ranks.includes("SCAMMER") ? "scam" : undefined} />
                </Link>
              </li>
            );
          })}
          {count > members.length ? (
            <li className="flex size-10 items-center justify-center rounded-full bg-secondary text-xs font-semibold text-secondary-foreground">
              +{count - members.length}
            </li>
          ) : null}
        </ul>
      )}
    </section>
  );
}
