/**
 * The trust card's face (docs/product/interface.md#trust-card): the member's head, and their
 * figures once they have come. A module of its own so that the hover card's lazy chunk
 * (app/components/users/floating-card.tsx) carries it, out of every page's first scripts
 * (decision 0040); the deal page and the transfer confirmation show it in place.
 */
import { CalendarDays, Handshake, Heart, ShieldCheck, AlertTriangle } from "lucide-react";
import { Link } from "~/components/ui/link";
import { Avatar } from "~/components/ui/avatar";
import { RankBadges } from "~/components/users/rank-badges";
import { isScammer, ScamWarning, type MemberRef } from "~/components/users/trust-card";
import { formatKopecks } from "~/domain/ledger/money";
import type { TrustCardDto } from "~/domain/users/trust-card.server";
import { formatDate, formatDateTime, plural } from "~/lib/format";
import { cn } from "~/lib/utils";

/**
 * The card itself: the member's head at once, the figures once `card` has come (skeleton lines
 * until then). Also used in place, without hovering: the deal page, the transfer confirmation.
 */
export function TrustCard({ member, card, failed = false }: { member: MemberRef; card: TrustCardDto | null; failed?: boolean }) {
  const scammer = isScammer(member);
  return (
    <div className="grid gap-3 text-sm">
      <div className="flex items-center gap-3">
        <Avatar username={member.username} src={member.image} size="base" link={`/profile/${member.id}`} overlay={scammer ? "scam" : undefined} />
        <div className="min-w-0">
          <Link to={`/profile/${member.id}`} className="block truncate font-heading text-base font-bold hover:underline">
            {member.username}
          </Link>
          <RankBadges ranks={member.ranks} />
        </div>
      </div>
      {scammer ? <ScamWarning username={member.username} compact /> : null}
      {card ? (
        <dl className="grid grid-cols-2 gap-x-3 gap-y-2" data-testid="trust-card-figures">
          <Figure
            icon={<ShieldCheck aria-hidden className="size-4 text-success" />}
            label="Депозит"
            value={card.deposit > 0 ? formatKopecks(card.deposit) : "нет"}
          />
          <Figure
            icon={<Handshake aria-hidden className="size-4 text-primary" />}
            label="Сделки"
            value={`${card.dealsCompleted} ${plural(card.dealsCompleted, ["завершена", "завершены", "завершено"])}`}
          />
          <Figure icon={<Heart aria-hidden className="size-4 text-primary" />} label="Репутация" value={`${card.reputation}`} />
          <Figure
            icon={<AlertTriangle aria-hidden className={cn("size-4", card.claimsUpheld > 0 ? "text-destructive" : "text-muted-foreground")} />}
            label="Претензии"
            value={card.claimsOpen + card.claimsUpheld === 0 ? "нет" : `${card.claimsOpen} открыто, ${card.claimsUpheld} признано`}
          />
          <Figure icon={<CalendarDays aria-hidden className="size-4 text-muted-foreground" />} label="С нами с" value={formatDate(card.createdAt)} />
          <Figure label="Был(а) на сайте" value={card.lastSeenAt ? formatDateTime(card.lastSeenAt) : "давно"} />
        </dl>
      ) : failed ? (
        <p className="text-muted-foreground">Не удалось загрузить данные участника.</p>
      ) : (
        <div className="grid gap-2" aria-busy="true" aria-label="Загружаем данные участника">
          <div className="h-4 w-3/4 animate-pulse rounded bg-muted" />
          <div className="h-4 w-1/2 animate-pulse rounded bg-muted" />
        </div>
      )}
    </div>
  );
}

function Figure({ icon, label, value }: { icon?: React.ReactNode; label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1 text-xs text-muted-foreground">
        {icon}
        {label}
      </dt>
      <dd className="truncate font-medium">{value}</dd>
    </div>
  );
}
