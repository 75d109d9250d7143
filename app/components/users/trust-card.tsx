/**
 * The member's avatar and name that open the trust card (its face: ./trust-card-body.tsx) (docs/product/interface.md#trust-card):
 * hovering an avatar or a name for 700 ms (or focusing it) opens a card with the member's ranks,
 * deposit, completed deals, reputation, claims against them, when they joined and were last seen;
 * it closes 300 ms after the pointer leaves. The card's figures are asked from
 * GET /api/profiles/{id}/trust-card when it first opens (a plain fetch: a failed answer says so in
 * the card, where a fetcher's failed load would replace the page with the error page). The trigger stays a link to the profile,
 * so without JavaScript (or on touch) it simply goes there. A SCAMMER's avatar carries the scam
 * overlay everywhere (docs/product/claims.md#scammer-rank).
 */
import { Link } from "~/components/ui/link";
import { Avatar, type AvatarSize } from "~/components/ui/avatar";
import { TRUST_TRIGGER_CLASS, trustTriggerRef } from "~/components/users/trust-triggers";
import type { Rank } from "~/domain/users/users.server";
import type { TrustCardDto } from "~/domain/users/trust-card.server";
import { cn } from "~/lib/utils";
import { Icon } from "~/components/ui/icon";

/** What a list already knows of a member (UserRefDto and its kin). */
export interface MemberRef {
  id: number;
  username: string;
  image?: string | null;
  ranks: Rank[];
}

/** Whether the member carries the SCAMMER rank (an upheld claim, docs/product/claims.md#scammer-rank). */
export function isScammer(member: Pick<MemberRef, "ranks">): boolean {
  return member.ranks.includes("SCAMMER");
}

/** The member's avatar, linked to their profile, with the scam overlay and the trust card on hover. */
export function MemberAvatar({ member, size = "sm", className }: { member: MemberRef; size?: AvatarSize; className?: string }) {
  return (
    <TrustHoverCard member={member}>
      <Avatar
        username={member.username}
        src={member.image}
        size={size}
        link={`/profile/${member.id}`}
        overlay={isScammer(member) ? "scam" : undefined}
        className={className}
      />
    </TrustHoverCard>
  );
}

/** The member's name, linked to their profile, with the trust card on hover. */
export function MemberName({ member, className }: { member: MemberRef; className?: string }) {
  return (
    <TrustHoverCard member={member}>
      <Link to={`/profile/${member.id}`} className={cn("member-name", isScammer(member) && "member-name-scammer", className)}>
        {member.username}
      </Link>
    </TrustHoverCard>
  );
}

/**
 * Wraps a link (avatar or name) so that hovering or focusing it opens the member's trust card: a
 * plain span, registered with its member once in the browser; the page's one `TrustCardHost`
 * (app/components/users/trust-card-host.tsx, in the root) opens the card beside it (decision 0038).
 */
export function TrustHoverCard({ member, children }: { member: MemberRef; children: React.ReactNode }) {
  return (
    <span className={TRUST_TRIGGER_CLASS} ref={trustTriggerRef(member)}>
      {children}
    </span>
  );
}

/**
 * The warning about a SCAMMER (docs/product/interface.md#trust-card): on their personal chat,
 * their posts and a deal with them. `compact` is the card's one-liner.
 */
export function ScamWarning({ username, compact = false, className }: { username: string; compact?: boolean; className?: string }) {
  return (
    <div
      role="alert"
      data-testid="scam-warning"
      className={cn(
        "flex items-start gap-2 rounded-lg border border-destructive/50 bg-destructive/10 text-destructive",
        compact ? "p-2 text-xs" : "p-4 text-sm",
        className,
      )}
    >
      <Icon name="triangle-alert" className={cn("shrink-0", compact ? "size-4" : "size-5")} />
      <p>
        <strong>{username} — мошенник.</strong>{" "}
        {compact ? (
          "Претензия к участнику признана."
        ) : (
          <>
            Претензия к участнику признана модераторами. Не переводите деньги напрямую и не проводите сделки вне гаранта.{" "}
            <Link to="/blacklist" className="font-semibold underline">
              Чёрный список
            </Link>
          </>
        )}
      </p>
    </div>
  );
}

/**
 * Member `memberId`'s trust card from GET /api/profiles/{id}/trust-card. Rejects when the answer
 * is not a card (a limit's 429, a server error, no network) or `signal` aborts the request.
 */
export async function fetchTrustCard(memberId: number, signal: AbortSignal): Promise<TrustCardDto> {
  const response = await fetch(`/api/profiles/${memberId}/trust-card`, { signal, headers: { Accept: "application/json" } });
  const body = response.ok ? ((await response.json()) as { success: boolean; data?: TrustCardDto }) : null;
  if (!body?.success || !body.data) throw new Error(`trust card: ${response.status}`);
  return body.data;
}
