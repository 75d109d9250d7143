/** «Депозит: 12 000,00 ₽» on a member's public profile (docs/product/money.md#deposits: the deposit is public). */
import { ShieldCheck } from "lucide-react";
import { formatKopecks } from "~/domain/ledger/money";

export function DepositBadge({ deposit }: { deposit: number }) {
  if (deposit <= 0) return null;
  return (
    <span
      className="inline-flex h-8 items-center gap-1.5 rounded-md border border-success/40 bg-success/10 px-3 text-xs font-semibold text-success"
      title="Страховой депозит участника: из него выплачивают компенсацию по признанной претензии"
      data-testid="profile-deposit"
    >
      <ShieldCheck aria-hidden className="size-4" />
      Депозит: {formatKopecks(deposit)}
    </span>
  );
}
