/** The public blacklist (docs/product/claims.md#blacklist): avatar with the scam mark, name, reason, amount, date and the claim. */
import { Link } from "~/components/ui/link";
import type { BlacklistEntryDto } from "~/domain/claims/types";
import { formatKopecks } from "~/domain/ledger/money";
import { formatDate } from "~/lib/format";
import { ClaimParty } from "./claim-party";

export function BlacklistTable({ entries, searched = false }: { entries: BlacklistEntryDto[]; searched?: boolean }) {
  if (entries.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-border p-6 text-center text-muted-foreground" data-testid="blacklist-empty">
        {searched ? (
          <>
            Ничего не найдено. Проверьте написание имени или поищите по другим словам из причины.{" "}
            <Link to="/blacklist" className="tap-target font-medium text-primary hover:underline">
              Показать весь список
            </Link>
          </>
        ) : (
          "Чёрный список пуст."
        )}
      </p>
    );
  }
  return (
    <ul className="grid gap-3" data-testid="blacklist">
      {entries.map((entry) => (
        <li
          key={entry.claimId}
          className="grid gap-3 rounded-xl border border-border bg-card p-4 sm:grid-cols-[minmax(0,14rem)_1fr_auto]"
          data-testid="blacklist-entry"
        >
          <ClaimParty member={entry.accused} />
          <div className="min-w-0">
            <p className="text-xs text-muted-foreground">Причина</p>
            <p className="whitespace-pre-line break-words">{entry.reason}</p>
          </div>
          <div className="grid content-start gap-1 text-sm sm:text-right">
            <p className="font-semibold tabular-nums" title="Сумма претензии">
              {formatKopecks(entry.amount)}
            </p>
            {entry.compensation !== null ? <p className="text-muted-foreground">возмещено {formatKopecks(entry.compensation)}</p> : null}
            <p className="text-muted-foreground">{formatDate(entry.date)}</p>
            <Link to={`/claims/${entry.claimId}`} className="tap-target font-medium text-primary hover:underline">
              Претензия №{entry.claimId}
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}
