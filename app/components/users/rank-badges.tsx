import { Badge } from "~/components/ui/badge";
import { Icon } from "~/components/ui/icon";
import type { Rank } from "~/domain/users/users.server";

const LABELS: Record<Rank, { text: string; variant: "default" | "secondary" | "destructive" | "success" }> = {
  ADMIN: { text: "Админ", variant: "destructive" },
  MODERATOR: { text: "Модератор", variant: "default" },
  VERIFIED: { text: "Проверен", variant: "success" },
  SCAMMER: { text: "Мошенник", variant: "destructive" },
};

/** Ranks shown beside a name (docs/product/accounts.md#roles-and-ranks). */
export function RankBadges({ ranks }: { ranks: Rank[] }) {
  if (ranks.length === 0) return null;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {ranks.map((rank) => (
        <Badge key={rank} variant={LABELS[rank].variant} className="px-1.5 py-0 text-[10px] uppercase tracking-wide">
          {rank === "VERIFIED" ? <Icon name="badge-check" className="mr-0.5 size-3" /> : null}
          {LABELS[rank].text}
        </Badge>
      ))}
    </span>
  );
}
