/**
 * The balance log of docs/product/money.md#balance-logs as a list: what happened, with whom, the
 * signed amount and the balance after. The other member's avatar (scam overlay) and name open
 * their trust card (docs/product/interface.md#trust-card).
 */
import { isScammer, MemberAvatar, MemberName, type MemberRef } from "~/components/users/trust-card";
import type { BalanceLogEntry } from "~/domain/ledger/balances.server";
import type { DepositLogEntry } from "~/domain/ledger/deposits.server";
import { formatKopecks, formatSignedKopecks } from "~/domain/ledger/money";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import { BALANCE_LOG_LABELS, DEPOSIT_LOG_LABELS } from "./labels";

interface Row {
  id: number;
  label: string;
  amount: number;
  counterparty: MemberRef | null;
  memo: string | null;
  createdAt: string;
  balanceAfter: number;
}

export function BalanceLog({ entries }: { entries: BalanceLogEntry[] }) {
  return (
    <LogList
      testId="balance-log"
      rows={entries.map((e) => ({ ...e, label: BALANCE_LOG_LABELS[e.type] }))}
      empty="Операций пока нет. Здесь появятся пополнения, переводы, депозит и сделки."
      afterLabel="Баланс"
    />
  );
}

export function DepositLog({ entries }: { entries: DepositLogEntry[] }) {
  return (
    <LogList
      testId="deposit-log"
      rows={entries.map((e) => ({ ...e, memo: null, label: DEPOSIT_LOG_LABELS[e.type] }))}
      empty="Депозит ещё не менялся."
      afterLabel="Депозит"
    />
  );
}

function LogList({ rows, empty, afterLabel, testId }: { rows: Row[]; empty: string; afterLabel: string; testId: string }) {
  if (rows.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-border p-8 text-center text-muted-foreground" data-testid={`${testId}-empty`}>
        {empty}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-border rounded-xl border border-border bg-card shadow-sm" data-testid={testId}>
      {rows.map((row) => (
        <li key={row.id} className="flex flex-wrap items-start justify-between gap-3 p-3" data-testid="log-entry">
          <div className="flex min-w-0 items-start gap-3">
            {row.counterparty ? <MemberAvatar member={row.counterparty} /> : null}
            <div className="min-w-0">
              <p className="font-medium">
                {row.label}
                {row.counterparty ? (
                  <>
                    {" · "}
                    <MemberName member={row.counterparty} className={cn("font-medium", !isScammer(row.counterparty) && "text-primary")} />
                  </>
                ) : null}
              </p>
              {row.memo ? <p className="text-sm break-words text-muted-foreground">{row.memo}</p> : null}
              <p className="text-xs text-muted-foreground">{formatDateTime(row.createdAt)}</p>
            </div>
          </div>
          <div className="text-right">
            <p className={cn("font-semibold tabular-nums", row.amount > 0 ? "text-success" : "text-foreground")}>{formatSignedKopecks(row.amount)}</p>
            <p className="text-xs text-muted-foreground tabular-nums">
              {afterLabel}: {formatKopecks(row.balanceAfter)}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
