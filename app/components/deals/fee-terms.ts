/**
 * The guarantor's fee in words (docs/product/deals.md#fees), from the constants the server
 * charges by (app/domain/deals/fees.ts): «5 %, минимум 50,00 ₽». Pure: shown on the page and in the form.
 */
import { DEAL_FEE_PERCENT, DEAL_MIN_FEE } from "~/domain/deals/fees";
import { formatKopecks } from "~/domain/ledger/money";

export const FEE_TERMS = `${DEAL_FEE_PERCENT} %, минимум ${formatKopecks(DEAL_MIN_FEE)}`;
