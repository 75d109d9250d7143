/**
 * Entries of the audit log (docs/product/moderation.md#audit-log) as a list: when, who, what, on
 * whom or what (a link where the target has a page), and why. Used by /admin/log and the member
 * page of /admin/members.
 */
import { Link } from "~/components/ui/link";
import { DEAL_RESOLUTION_LABELS, type DealResolution } from "~/domain/deals/types";
import { formatKopecks } from "~/domain/ledger/money";
import type { AuditEntryDto } from "~/domain/moderation/types";
import { formatDateTime } from "~/lib/format";

export function AuditEntryList({ entries, empty }: { entries: AuditEntryDto[]; empty: string }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ol className="grid gap-2" data-testid="audit-entries">
      {entries.map((entry) => (
        <li key={entry.id} className="grid gap-0.5 rounded-xl border border-border p-3 text-sm" data-testid="audit-entry">
          <p className="text-xs text-muted-foreground">
            <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> · №{entry.id}
          </p>
          <p>
            {entry.actor ? (
              <>
                <span className="font-medium">{entry.actor.username}</span> {entry.actionLabel.toLowerCase()}
              </>
            ) : (
              <>{entry.actionLabel} автоматически</>
            )}
            {entry.targetUser ? (
              <>
                {" "}
                <Link to={`/admin/members/${entry.targetUser.id}`} className="font-medium text-primary hover:underline">
                  {entry.targetUser.username}
                </Link>
              </>
            ) : null}
            {entry.target.url && entry.target.type !== "user" ? (
              <>
                {" "}
                (
                <Link to={entry.target.url} className="text-primary hover:underline">
                  {TARGET_LABELS[entry.target.type] ?? "объект"}
                  {entry.target.id !== null ? ` №${entry.target.id}` : ""}
                </Link>
                )
              </>
            ) : null}
            {detailsText(entry) ? <span className="text-muted-foreground"> — {detailsText(entry)}</span> : null}
          </p>
          {entry.reason ? <p className="text-muted-foreground">Причина: {entry.reason}</p> : null}
        </li>
      ))}
    </ol>
  );
}

const TARGET_LABELS: Record<string, string> = {
  post: "пост",
  comment: "комментарий",
  wall_post: "запись на стене",
  message: "сообщение",
  setting: "настройки",
  report: "жалоба",
  deal: "сделка",
  claim: "претензия",
  ad: "реклама",
  track: "трек",
  faq_section: "раздел FAQ",
  faq_entry: "вопрос FAQ",
};

/** A few words of what changed, from the entry's details (rank, period, sum, title). */
function detailsText(entry: AuditEntryDto): string {
  const details = entry.details;
  const text = (key: string) => (typeof details[key] === "string" ? (details[key] as string) : null);
  const kopecks = (key: string) => (typeof details[key] === "number" ? formatKopecks(details[key] as number) : null);
  switch (entry.action) {
    case "money.topup":
      return kopecks("amount") ?? "";
    case "claim.uphold": {
      const compensation = kopecks("compensation");
      return compensation ? `компенсация ${compensation}` : "без компенсации";
    }
    case "deal.resolve": {
      const resolution = DEAL_RESOLUTION_LABELS[details.resolution as DealResolution] ?? "";
      const share = kopecks("sellerShare");
      return share ? `${resolution.toLowerCase()}: продавцу ${share}` : resolution.toLowerCase();
    }
    case "ad.approve":
    case "ad.reject":
      return text("title") ? `«${text("title")}»` : "";
  }
  if (entry.target.type === "track") return text("title") ? `«${text("title")}»${text("artist") ? ` (${text("artist")})` : ""}` : "";
  if (entry.target.type === "faq_section") return text("title") ? `раздел «${text("title")}»` : "";
  if (entry.target.type === "faq_entry") return text("question") ? `вопрос «${text("question")}»` : "";
  if (typeof details.rank === "string") return `роль ${details.rank}`;
  if (entry.action === "sanction.suspend" || entry.action === "sanction.mute") {
    const endsAt = details.endsAt;
    return typeof endsAt === "string" ? `до ${formatDateTime(endsAt)}` : endsAt === null ? "навсегда" : "";
  }
  if (entry.action === "settings.registration" && typeof details.to === "boolean") return details.to ? "открыл" : "закрыл";
  return "";
}
