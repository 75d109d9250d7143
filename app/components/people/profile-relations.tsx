/**
 * Follow and block controls and the follower / following lists in a profile's header
 * (docs/product/accounts.md#follows-and-blocks). Forms post to /profile/{id}/follow and /block and work without
 * JavaScript; with it, the button and the follower count change at once (optimistic) and the
 * page revalidates in place. Nothing actionable on one's own profile; visitors get a sign-in link.
 */
import { Ban, ChevronDown, UserCheck, UserPlus } from "lucide-react";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Avatar } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import type { ProfileRelations as Relations } from "~/domain/people/relations.server";
import type { ProfileDto, UserRefDto } from "~/domain/users/users.server";
import { formatCount, plural } from "~/lib/format";
import type { BlockActionData } from "~/routes/profile/block";
import type { FollowActionData } from "~/routes/profile/follow";
import { BackInput, JsMarker, useLoginHref } from "./form-bits";
import { isScammer, TrustHoverCard } from "~/components/users/trust-card";

export function ProfileRelations({ profile, relations, viewerId }: { profile: ProfileDto; relations: Relations; viewerId: number | null }) {
  const loginHref = useLoginHref();
  const follow = useFetcher<FollowActionData>({ key: `follow-${profile.id}` });
  const block = useFetcher<BlockActionData>({ key: `block-${profile.id}` });
  const blockIntent = block.formData?.get("intent");
  const followIntent = follow.formData?.get("intent");
  const blocking = blockIntent ? blockIntent === "block" : relations.blocking;
  const following = blockIntent === "block" ? false : followIntent ? followIntent === "follow" : relations.following;
  const followerCount = Math.max(0, relations.followerCount + Number(following) - Number(relations.following));
  const isOwn = viewerId === profile.id;
  const error = [follow, block].map((f) => (f.state === "idle" && f.data && !f.data.ok ? f.data.message : null)).find(Boolean);

  return (
    <>
      {viewerId === null ? (
        <Button asChild variant="outline" size="sm">
          <Link to={loginHref}>
            <UserPlus aria-hidden /> Войдите, чтобы подписаться
          </Link>
        </Button>
      ) : null}
      {viewerId !== null && !isOwn && !blocking && !relations.blockedByThem ? (
        <follow.Form method="post" action={`/profile/${profile.id}/follow`}>
          <HiddenFields intent={following ? "unfollow" : "follow"} />
          <Button type="submit" size="sm" variant={following ? "outline" : "default"}>
            {following ? <UserCheck aria-hidden /> : <UserPlus aria-hidden />}
            {following ? "Отписаться" : "Подписаться"}
          </Button>
        </follow.Form>
      ) : null}
      {viewerId !== null && !isOwn ? (
        <block.Form method="post" action={`/profile/${profile.id}/block`}>
          <HiddenFields intent={blocking ? "unblock" : "block"} />
          <Button type="submit" size="sm" variant="ghost" className={blocking ? undefined : "text-destructive hover:text-destructive"}>
            <Ban aria-hidden />
            {blocking ? "Разблокировать" : "Заблокировать"}
          </Button>
        </block.Form>
      ) : null}
      {viewerId !== null && !isOwn && relations.blockedByThem ? (
        <p className="self-center text-sm text-muted-foreground">Участник ограничил вам доступ.</p>
      ) : null}
      {error ? (
        <p role="alert" className="basis-full text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex basis-full flex-wrap items-start gap-x-6 gap-y-2 text-sm">
        <RelationList
          testId="followers"
          count={followerCount}
          forms={["подписчик", "подписчика", "подписчиков"]}
          people={relations.followers}
          empty="Подписчиков пока нет."
        />
        <RelationList
          testId="following"
          count={relations.followingCount}
          forms={["подписка", "подписки", "подписок"]}
          people={relations.followees}
          empty="Ни на кого не подписан."
        />
      </div>
    </>
  );
}

function HiddenFields({ intent }: { intent: string }) {
  return (
    <>
      <AuthenticityTokenInput />
      <input type="hidden" name="intent" value={intent} />
      <BackInput />
      <JsMarker />
    </>
  );
}

/** A count that opens (a native <details>, so without JavaScript too) onto the latest members. */
function RelationList({
  testId,
  count,
  forms,
  people,
  empty,
}: {
  testId: string;
  count: number;
  forms: readonly [string, string, string];
  people: UserRefDto[];
  empty: string;
}) {
  const more = count - people.length;
  return (
    <details className="group min-w-0" data-testid={testId}>
      <summary className="cursor-pointer list-none text-muted-foreground hover:text-foreground [&::-webkit-details-marker]:hidden">
        <strong className="font-semibold text-foreground" data-testid={`${testId}-count`}>
          {formatCount(count)}
        </strong>{" "}
        {plural(count, forms)}
        <ChevronDown aria-hidden className="ml-0.5 inline size-3.5 transition-transform group-open:rotate-180" />
      </summary>
      {people.length === 0 ? (
        <p className="mt-2 text-muted-foreground">{empty}</p>
      ) : (
        <ul className="mt-2 flex max-w-md flex-wrap gap-2">
          {people.map((person) => (
            <li key={person.id}>
              <Link
                to={`/profile/${person.id}`}
                className="inline-flex items-center gap-1.5 rounded-full border border-border py-0.5 pr-2.5 pl-0.5 hover:bg-accent"
              >
                <TrustHoverCard member={person}>
                  <Avatar
                    username={person.username}
                    src={person.image}
                    size="sm"
                    className="size-6 text-[10px]"
                    overlay={isScammer(person) ? "scam" : undefined}
                  />
                </TrustHoverCard>
                <span>{person.username}</span>
              </Link>
            </li>
          ))}
          {more > 0 ? <li className="self-center text-muted-foreground">и ещё {formatCount(more)}</li> : null}
        </ul>
      )}
    </details>
  );
}
