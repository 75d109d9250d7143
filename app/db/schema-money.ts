/**
 * The ledger (issue 5; docs/product/money.md; docs/decisions/0007-ledger.md). Re-exported by
 * schema.ts, so there is still one schema.
 *
 * Every change of money is an immutable double-entry row of `ledger_transfers`: `amount`
 * kopecks leave the debit account and reach the credit account. An account's balance is the
 * sum of its credits minus the sum of its debits; `ledger_accounts.balance` caches it and is
 * updated in the same transaction as every transfer. The money of the outside world enters
 * through the one `platform_funding` account, which is the only account allowed below zero,
 * so the balances of all accounts always sum to zero.
 *
 * Amounts are integer kopecks in `bigint` columns read as JS numbers (exact up to 2^53 kopecks,
 * ≈ 90 trillion roubles). The immutability trigger of `ledger_transfers` lives in the
 * hand-written part of drizzle/0006_ledger.sql.
 */
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const kopecks = (name: string) => bigint(name, { mode: "number" });

export const LEDGER_ACCOUNT_KINDS = ["member_available", "member_deposit", "member_held", "escrow", "platform_fee", "platform_funding"] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];
export type MemberAccountKind = Extract<LedgerAccountKind, `member_${string}`>;

/**
 * Transfer kinds: a top-up from platform funding, a plain member transfer, a held transfer
 * (sender available → recipient held) and the release of a hold (held → available); a deposit
 * (available → deposit) and its withdrawal (deposit → available); a deal's funding (buyer
 * available → escrow), payout (escrow → seller available), refund (escrow → buyer available)
 * and fee (escrow → platform fee); compensation of an upheld claim (accused deposit → claimant
 * available); an ad request's hold (member available → escrow `ad:{id}`), its release on
 * rejection (escrow → member available) and its payment on approval (escrow → platform fee).
 * A new kind needs a migration for the CHECK below.
 */
export const LEDGER_TRANSFER_KINDS = [
  "topup",
  "transfer",
  "hold",
  "release",
  "deposit",
  "withdrawal",
  "escrow",
  "payout",
  "refund",
  "fee",
  "compensation",
  "ad_hold",
  "ad_release",
  "ad_payment",
] as const;
export type LedgerTransferKind = (typeof LEDGER_TRANSFER_KINDS)[number];

export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    /** The owner of a member_* account; null for escrow and platform accounts. */
    userId: integer("user_id").references(() => users.id),
    /** What an escrow account belongs to (a deal id, later); null otherwise. */
    reference: text("reference"),
    /** Cached balance in kopecks: credits − debits, written in every transfer's transaction. */
    balance: kopecks("balance").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    // One account of each member kind per member (NULL user ids of other kinds never collide).
    uniqueIndex("ledger_accounts_kind_user_key").on(t.kind, t.userId),
    uniqueIndex("ledger_accounts_escrow_reference_key")
      .on(t.reference)
      .where(sql`${t.kind} = 'escrow'`),
    uniqueIndex("ledger_accounts_one_platform")
      .on(t.kind)
      .where(sql`${t.kind} in ('platform_fee', 'platform_funding')`),
    check("ledger_accounts_kind_known", sql`${t.kind} in ('member_available', 'member_deposit', 'member_held', 'escrow', 'platform_fee', 'platform_funding')`),
    check("ledger_accounts_member_owner", sql`(${t.kind} like 'member\\_%') = (${t.userId} is not null)`),
    check("ledger_accounts_escrow_reference", sql`(${t.kind} = 'escrow') = (${t.reference} is not null)`),
    // docs/product/money.md#invariants: no member account (nor escrow, nor the fee account) goes below zero.
    check("ledger_accounts_balance_non_negative", sql`${t.kind} = 'platform_funding' or ${t.balance} >= 0`),
  ],
);

/**
 * One money-moving request, recorded once per idempotency key of its actor: a retry with the
 * same key and the same request (same fingerprint) gets `result` back and moves nothing; the
 * same key with another request is refused. System operations (the hold scheduler) have no
 * actor and keys unique among themselves.
 */
export const ledgerOperations = pgTable(
  "ledger_operations",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id").references(() => users.id),
    idempotencyKey: text("idempotency_key").notNull(),
    kind: text("kind").notNull(),
    /** SHA-256 (hex) of the normalised request, kind included. */
    fingerprint: text("fingerprint").notNull(),
    /** What the operation answered, returned as is to retries. */
    result: jsonb("result"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_operations_actor_key")
      .on(t.actorId, t.idempotencyKey)
      .where(sql`${t.actorId} is not null`),
    uniqueIndex("ledger_operations_system_key")
      .on(t.idempotencyKey)
      .where(sql`${t.actorId} is null`),
    check("ledger_operations_key_length", sql`char_length(${t.idempotencyKey}) between 1 and 200`),
  ],
);

/**
 * Immutable double-entry transfers (a trigger refuses UPDATE and DELETE). Each row
 * also records both accounts' balances right after it, so balance logs need no running sums.
 */
export const ledgerTransfers = pgTable(
  "ledger_transfers",
  {
    id: serial("id").primaryKey(),
    operationId: integer("operation_id")
      .notNull()
      .references(() => ledgerOperations.id),
    kind: text("kind", { enum: LEDGER_TRANSFER_KINDS }).notNull(),
    debitAccountId: integer("debit_account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    creditAccountId: integer("credit_account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: kopecks("amount").notNull(),
    debitBalanceAfter: kopecks("debit_balance_after").notNull(),
    creditBalanceAfter: kopecks("credit_balance_after").notNull(),
    memo: text("memo"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_transfers_debit_idx").on(t.debitAccountId, t.id),
    index("ledger_transfers_credit_idx").on(t.creditAccountId, t.id),
    index("ledger_transfers_operation_idx").on(t.operationId),
    // Transfer volume per day (/admin/stats).
    index("ledger_transfers_created_at_idx")
      .on(t.createdAt)
      .where(sql`${t.kind} in ('transfer', 'hold')`),
    check("ledger_transfers_amount_positive", sql`${t.amount} > 0`),
    check("ledger_transfers_distinct_accounts", sql`${t.debitAccountId} <> ${t.creditAccountId}`),
    check(
      "ledger_transfers_kind_known",
      sql`${t.kind} in ('topup', 'transfer', 'hold', 'release', 'deposit', 'withdrawal', 'escrow', 'payout', 'refund', 'fee', 'compensation', 'ad_hold', 'ad_release', 'ad_payment')`,
    ),
    check("ledger_transfers_memo_length", sql`${t.memo} is null or char_length(${t.memo}) <= 500`),
  ],
);

/**
 * Held member-to-member transfers (docs/product/money.md#holds, LOLZTEAM-style): the amount sits in the
 * recipient's member_held account until `release_at` (the scheduler) or until the sender
 * releases it early; then a `release` transfer moves it to the recipient's available account.
 */
export const ledgerHolds = pgTable(
  "ledger_holds",
  {
    id: serial("id").primaryKey(),
    operationId: integer("operation_id")
      .notNull()
      .references(() => ledgerOperations.id),
    transferId: integer("transfer_id")
      .notNull()
      .references(() => ledgerTransfers.id),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => users.id),
    amount: kopecks("amount").notNull(),
    releaseAt: timestamp("release_at", { withTimezone: true }).notNull(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releaseTransferId: integer("release_transfer_id").references(() => ledgerTransfers.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_holds_due_idx")
      .on(t.releaseAt)
      .where(sql`${t.releasedAt} is null`),
    index("ledger_holds_sender_idx").on(t.senderId, t.id),
    index("ledger_holds_recipient_idx").on(t.recipientId, t.id),
    uniqueIndex("ledger_holds_release_transfer_key").on(t.releaseTransferId),
    check("ledger_holds_amount_positive", sql`${t.amount} > 0`),
    check("ledger_holds_released_together", sql`(${t.releasedAt} is null) = (${t.releaseTransferId} is null)`),
  ],
);
