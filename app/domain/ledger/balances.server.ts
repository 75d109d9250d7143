/**
 * What the wallet page and GET /api/profile/payments/balance read (docs/product/money.md#balance-logs):
 * a member's balances (available, held, deposit) and the balance log, each change of the available
 * balance with its type, signed amount, counterparty and the balance after. Read only; the
 * operations that change them are wallet.server.ts's, deposits.server.ts's and the deals'.
 */
import { aliasedTable, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { ledgerAccounts, ledgerHolds, ledgerTransfers, users, type LedgerTransferKind } from "~/db/schema";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { memberAccountTransfers, memberBalances } from "./ledger.server";
import { memberBadge, memberBadgeColumns, type MemberBadgeDto } from "~/domain/users/member-badge.server";

export interface Balances {
  /** Spendable, kopecks. */
  available: number;
  /** Received under holds not yet released, kopecks. */
  held: number;
  /** Locked as the public deposit, kopecks. */
  deposit: number;
}

/**
 * What changed the available balance: a top-up; a plain transfer in or out; a held transfer
 * sent (the recipient sees it when released: hold_release); money locked in or returned from
 * the deposit; a guarantor deal's funding, payout, refund or fee (memo «Сделка №N»); and a
 * claim's compensation paid to the claimant; an ad request's price held and, on rejection, returned
 * (memo «Реклама №N»).
 */
export type BalanceLogType =
  | "topup"
  | "transfer_in"
  | "transfer_out"
  | "hold_out"
  | "hold_release"
  | "deposit"
  | "deposit_withdrawal"
  | "deal_funding"
  | "deal_payout"
  | "deal_refund"
  | "deal_fee"
  | "claim_compensation"
  | "ad_hold"
  | "ad_release";

const LOG_TYPE_OF_KIND: Partial<Record<LedgerTransferKind, BalanceLogType>> = {
  topup: "topup",
  hold: "hold_out",
  release: "hold_release",
  deposit: "deposit",
  withdrawal: "deposit_withdrawal",
  escrow: "deal_funding",
  payout: "deal_payout",
  refund: "deal_refund",
  fee: "deal_fee",
  compensation: "claim_compensation",
  ad_hold: "ad_hold",
  ad_release: "ad_release",
};
/** Kinds whose other side is the member's own account or an escrow: no counterparty. */
const WITHOUT_COUNTERPARTY = new Set<LedgerTransferKind>(["topup", "deposit", "withdrawal", "escrow", "payout", "refund", "fee", "ad_hold", "ad_release"]);

/** One line of the balance log of docs/product/money.md#balance-logs: a change of the member's available balance. */
export interface BalanceLogEntry {
  id: number;
  type: BalanceLogType;
  /** Signed kopecks: positive credits the member, negative debits them. */
  amount: number;
  /** The other member (with ranks: the scam overlay and the trust card), or null (top-ups, escrow, fees). */
  counterparty: MemberBadgeDto | null;
  memo: string | null;
  /** ISO time. */
  createdAt: string;
  /** The available balance right after this entry, kopecks. */
  balanceAfter: number;
}

/** Member `userId`'s balances in kopecks: available, held (incoming holds) and deposit. */
export async function getBalances(db: Db, userId: number): Promise<Balances> {
  const balances = await memberBalances(db, userId, ["member_available", "member_held", "member_deposit"]);
  return { available: balances.member_available, held: balances.member_held, deposit: balances.member_deposit };
}

/**
 * The balance log of docs/product/money.md#balance-logs (`GET /api/profile/payments/balance`): every change of
 * member `userId`'s available balance, newest first, paged by `params`, each with its type,
 * signed amount in kopecks, counterparty (null for top-ups), memo, time and the balance after it.
 */
export async function listBalanceLog(db: Db, userId: number, params: PageParams): Promise<Page<BalanceLogEntry>> {
  const log = await memberAccountTransfers(db, userId, "member_available");
  if (!log) return toPage([], 0, params);
  const { accountId, touches: mine } = log;
  const other = aliasedTable(ledgerAccounts, "other");
  const release = aliasedTable(ledgerHolds, "release");
  const counterparty = aliasedTable(users, "counterparty");
  const rows = await db
    .select({
      id: ledgerTransfers.id,
      kind: ledgerTransfers.kind,
      debitAccountId: ledgerTransfers.debitAccountId,
      amount: ledgerTransfers.amount,
      debitBalanceAfter: ledgerTransfers.debitBalanceAfter,
      creditBalanceAfter: ledgerTransfers.creditBalanceAfter,
      memo: ledgerTransfers.memo,
      createdAt: ledgerTransfers.createdAt,
      counterparty: memberBadgeColumns(counterparty),
    })
    .from(ledgerTransfers)
    .innerJoin(
      other,
      eq(
        other.id,
        sql`case when ${ledgerTransfers.debitAccountId} = ${accountId} then ${ledgerTransfers.creditAccountId} else ${ledgerTransfers.debitAccountId} end`,
      ),
    )
    .leftJoin(release, eq(release.releaseTransferId, ledgerTransfers.id))
    .leftJoin(counterparty, eq(counterparty.id, sql`coalesce(${release.senderId}, ${other.userId})`))
    .where(mine)
    .orderBy(desc(ledgerTransfers.id))
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await db.select({ value: count() }).from(ledgerTransfers).where(mine);
  const items = rows.map((row): BalanceLogEntry => {
    const outgoing = row.debitAccountId === accountId;
    const type: BalanceLogType = LOG_TYPE_OF_KIND[row.kind] ?? (outgoing ? "transfer_out" : "transfer_in");
    return {
      id: row.id,
      type,
      amount: outgoing ? -row.amount : row.amount,
      counterparty: WITHOUT_COUNTERPARTY.has(row.kind) || row.counterparty === null ? null : memberBadge(row.counterparty),
      memo: row.kind === "topup" ? null : row.memo,
      createdAt: row.createdAt.toISOString(),
      balanceAfter: outgoing ? row.debitBalanceAfter : row.creditBalanceAfter,
    };
  });
  return toPage(items, total?.value ?? 0, params);
}
