/** A member in a claim or on the blacklist: avatar (scam overlay for a SCAMMER), name and ranks, linked to the profile. */
import { Link } from "~/components/ui/link";
import { Avatar, type AvatarSize } from "~/components/ui/avatar";
import { RankBadges } from "~/components/users/rank-badges";
import type { ClaimPartyDto } from "~/domain/claims/types";

export function ClaimParty({ member, size = "sm", label }: { member: ClaimPartyDto; size?: AvatarSize; label?: string }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar
        username={member.username}
        src={member.image}
        size={size}
        link={`/profile/${member.id}`}
        overlay={member.ranks.includes("SCAMMER") ? "scam" : undefined}
      />
      <div className="min-w-0">
        {label ? <p className="text-xs text-muted-foreground">{label}</p> : null}
        <div className="flex flex-wrap items-center gap-1.5">
          <Link to={`/profile/${member.id}`} className="tap-target truncate font-semibold hover:underline">
            {member.username}
          </Link>
          <RankBadges ranks={member.ranks} />
        </div>
        {member.displayName ? <p className="truncate text-sm text-muted-foreground">{member.displayName}</p> : null}
      </div>
    </div>
  );
}
