import { CalendarDays, FileText } from "lucide-react";
import { Avatar } from "~/components/ui/avatar";
import { RankBadges } from "~/components/users/rank-badges";
import type { ProfileDto } from "~/domain/users/users.server";
import { formatDate, plural } from "~/lib/format";

const ONLINE_WINDOW_MS = 5 * 60 * 1000;

/** A member's card: avatar, names, ranks, bio, join date and post count (docs/product/accounts.md#members). */
export function ProfileHeader({ profile, children }: { profile: ProfileDto; children?: React.ReactNode }) {
  const online = profile.lastSeenAt !== null && Date.parse(profile.lastSeenAt) > Date.now() - ONLINE_WINDOW_MS;
  return (
    <section className="flex flex-col gap-6 rounded-2xl border border-border bg-card p-6 shadow-sm sm:flex-row sm:items-start" data-testid="profile-header">
      <Avatar username={profile.username} src={profile.image} size="lg" overlay={profile.ranks.includes("SCAMMER") ? "scam" : undefined} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="font-heading text-2xl font-extrabold">{profile.username}</h1>
          <RankBadges ranks={profile.ranks} />
          {online ? <span className="text-xs font-medium text-success">● в сети</span> : null}
        </div>
        {profile.displayName ? <p className="text-muted-foreground">{profile.displayName}</p> : null}
        {profile.bio ? <p className="mt-3 whitespace-pre-line">{profile.bio}</p> : null}
        <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted-foreground">
          <div className="inline-flex items-center gap-1.5">
            <CalendarDays aria-hidden className="size-4" />
            <dt className="sr-only">На сайте с</dt>
            <dd>С нами с {formatDate(profile.createdAt)}</dd>
          </div>
          <div className="inline-flex items-center gap-1.5">
            <FileText aria-hidden className="size-4" />
            <dt className="sr-only">Публикации</dt>
            <dd>
              {profile.postCount} {plural(profile.postCount, ["публикация", "публикации", "публикаций"])}
            </dd>
          </div>
        </dl>
        {children ? <div className="mt-4 flex flex-wrap gap-2">{children}</div> : null}
      </div>
    </section>
  );
}
