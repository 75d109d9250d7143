/** The three balances of a member (docs/product/money.md#accounts): available, held (incoming holds) and deposit. */
import { Clock, ShieldCheck, Wallet } from "lucide-react";
import { Link } from "~/components/ui/link";
import type { Balances } from "~/domain/ledger/balances.server";
import { formatKopecks } from "~/domain/ledger/money";

export function BalanceCards({ balances }: { balances: Balances }) {
  const cards = [
    { id: "available", label: "Доступно", value: balances.available, icon: Wallet, hint: "Можно переводить и вносить в депозит" },
    { id: "held", label: "На удержании", value: balances.held, icon: Clock, hint: "Поступит, когда отправитель снимет удержание или истечёт срок" },
    { id: "deposit", label: "Депозит", value: balances.deposit, icon: ShieldCheck, hint: "Публичный страховой депозит", href: "/profile/deposit" },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3" aria-label="Балансы">
      {cards.map(({ id, label, value, icon: Icon, hint, href }) => (
        <div key={id} className="rounded-xl border border-border bg-card p-4 shadow-sm" data-testid={`balance-${id}`}>
          <dt className="flex items-center gap-2 text-sm text-muted-foreground">
            <Icon aria-hidden className="size-4 text-primary" />
            {label}
          </dt>
          <dd className="mt-1 font-heading text-2xl font-extrabold tabular-nums">{formatKopecks(value)}</dd>
          <dd className="mt-1 text-xs text-muted-foreground">
            {href ? (
              <Link to={href} className="text-primary hover:underline">
                {hint}
              </Link>
            ) : (
              hint
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
