/**
 * Trust on top of the ledger
 * (issue 5; docs/product/money.md#deposits, docs/product/deals.md, docs/product/claims.md): deposit withdrawals, guarantor deals with their transition log, and claims.
 * Re-exported by schema.ts, so there is still one schema. Money itself never lives here: these
 * rows say why the ledger moved it (`ledger_transfers` of the operation named by each row).
 *
 * Lock order for every writer: first the row of this file (a deal, a claim, a withdrawal), then
 * ledger accounts through the ledger (ORDER BY id), so concurrent operations queue instead of
 * deadlocking.
 */
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./schema-core";
import { ledgerOperations, ledgerTransfers } from "./schema-money";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const kopecks = (name: string) => bigint(name, { mode: "number" });
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A request to take deposit money back (docs/product/money.md#deposits: 14 days, shown as pending,
 * blocked while a claim against the member is open). The money stays in the deposit account —
 * still covering claims — until the scheduler completes the withdrawal at `available_at`,
 * moving min(amount, deposit balance then) to the available account. One pending per member.
 */
export const depositWithdrawals = pgTable(
  "deposit_withdrawals",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** Requested kopecks. */
    amount: kopecks("amount").notNull(),
    state: text("state", { enum: ["pending", "completed", "cancelled"] })
      .notNull()
      .default("pending"),
    /** The operation that requested it. */
    operationId: integer("operation_id")
      .notNull()
      .references(() => ledgerOperations.id),
    /** When the scheduler may complete it (request time + 14 days). */
    availableAt: at("available_at").notNull(),
    /** Kopecks actually moved on completion (a claim may have taken part of the deposit). */
    completedAmount: kopecks("completed_amount"),
    transferId: integer("transfer_id").references(() => ledgerTransfers.id),
    closedAt: at("closed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deposit_withdrawals_one_pending")
      .on(t.userId)
      .where(sql`${t.state} = 'pending'`),
    index("deposit_withdrawals_due_idx")
      .on(t.availableAt)
      .where(sql`${t.state} = 'pending'`),
    index("deposit_withdrawals_user_idx").on(t.userId, t.id),
    check("deposit_withdrawals_amount_positive", sql`${t.amount} > 0`),
    check("deposit_withdrawals_state_known", sql`${t.state} in ('pending', 'completed', 'cancelled')`),
    check("deposit_withdrawals_closed", sql`(${t.state} = 'pending') = (${t.closedAt} is null)`),
  ],
);

export const DEAL_STATES = ["created", "accepted", "funded", "delivered", "completed", "cancelled", "disputed", "refunded", "split"] as const;
export type DealState = (typeof DEAL_STATES)[number];
export const DEAL_FEE_PAYERS = ["buyer", "seller", "split"] as const;
export type DealFeePayer = (typeof DEAL_FEE_PAYERS)[number];

/**
 * A guarantor deal (docs/product/deals.md#fees). Fees are fixed at creation: `fee` =
 * max(5 % of amount, 50 ₽), shared as `buyer_fee` + `seller_fee` by `fee_payer`. Funding puts
 * amount + buyer_fee into the escrow account `deal:{id}`.
 */
export const deals = pgTable(
  "deals",
  {
    id: serial("id").primaryKey(),
    buyerId: integer("buyer_id")
      .notNull()
      .references(() => users.id),
    sellerId: integer("seller_id")
      .notNull()
      .references(() => users.id),
    /** Who proposed the deal (buyer or seller); the other party accepts. */
    createdBy: integer("created_by")
      .notNull()
      .references(() => users.id),
    amount: kopecks("amount").notNull(),
    fee: kopecks("fee").notNull(),
    feePayer: text("fee_payer", { enum: DEAL_FEE_PAYERS }).notNull(),
    buyerFee: kopecks("buyer_fee").notNull(),
    sellerFee: kopecks("seller_fee").notNull(),
    description: text("description").notNull(),
    /** By when the seller promises to deliver. */
    deadline: at("deadline").notNull(),
    state: text("state", { enum: DEAL_STATES }).notNull().default("created"),
    fundedAt: at("funded_at"),
    deliveredAt: at("delivered_at"),
    /** delivered_at + 72 hours while delivered: the scheduler completes the deal then. */
    autoCompleteAt: at("auto_complete_at"),
    /** After funding, the party who asked to cancel; the other party's agreement refunds the buyer. */
    cancelRequestedBy: integer("cancel_requested_by").references(() => users.id),
    disputedBy: integer("disputed_by").references(() => users.id),
    disputeReason: text("dispute_reason"),
    /** Kopecks of `amount` a moderator's split gives the seller (the rest goes back to the buyer). */
    sellerShare: kopecks("seller_share"),
    resolvedBy: integer("resolved_by").references(() => users.id),
    resolutionNote: text("resolution_note"),
    closedAt: at("closed_at"),
    createdAt: createdAt(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("deals_buyer_idx").on(t.buyerId, t.id),
    index("deals_seller_idx").on(t.sellerId, t.id),
    index("deals_auto_complete_idx")
      .on(t.autoCompleteAt)
      .where(sql`${t.state} = 'delivered'`),
    index("deals_disputed_idx")
      .on(t.id)
      .where(sql`${t.state} = 'disputed'`),
    // Deals created and completed per day (/admin/stats).
    index("deals_created_at_idx").on(t.createdAt),
    index("deals_completed_at_idx")
      .on(t.closedAt)
      .where(sql`${t.state} = 'completed'`),
    check("deals_parties_distinct", sql`${t.buyerId} <> ${t.sellerId}`),
    check("deals_creator_is_party", sql`${t.createdBy} in (${t.buyerId}, ${t.sellerId})`),
    check("deals_amount_positive", sql`${t.amount} > 0`),
    check("deals_fee_shares", sql`${t.buyerFee} >= 0 and ${t.sellerFee} >= 0 and ${t.buyerFee} + ${t.sellerFee} = ${t.fee}`),
    check("deals_seller_fee_below_amount", sql`${t.sellerFee} < ${t.amount}`),
    check("deals_fee_payer_known", sql`${t.feePayer} in ('buyer', 'seller', 'split')`),
    check("deals_state_known", sql`${t.state} in ('created', 'accepted', 'funded', 'delivered', 'completed', 'cancelled', 'disputed', 'refunded', 'split')`),
    check("deals_seller_share_range", sql`${t.sellerShare} is null or (${t.sellerShare} > 0 and ${t.sellerShare} < ${t.amount})`),
    check("deals_description_length", sql`char_length(${t.description}) between 1 and 5000`),
  ],
);

/** Every transition of a deal (docs/product/deals.md#transition-log: who, when, from-state, to-state), one per operation. */
export const dealTransitions = pgTable(
  "deal_transitions",
  {
    id: serial("id").primaryKey(),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id),
    /** Null for the scheduler's automatic completion. */
    actorId: integer("actor_id").references(() => users.id),
    action: text("action").notNull(),
    fromState: text("from_state", { enum: DEAL_STATES }).notNull(),
    toState: text("to_state", { enum: DEAL_STATES }).notNull(),
    operationId: integer("operation_id")
      .notNull()
      .references(() => ledgerOperations.id),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [index("deal_transitions_deal_idx").on(t.dealId, t.id), uniqueIndex("deal_transitions_operation_key").on(t.operationId)],
);

export const CLAIM_STATUSES = ["open", "upheld", "rejected"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * A claim against a member (docs/product/claims.md). Upheld claims are the blacklist
 * (public); an upheld claim may be compensated from the accused's deposit.
 */
export const claims = pgTable(
  "claims",
  {
    id: serial("id").primaryKey(),
    claimantId: integer("claimant_id")
      .notNull()
      .references(() => users.id),
    accusedId: integer("accused_id")
      .notNull()
      .references(() => users.id),
    dealId: integer("deal_id").references(() => deals.id),
    /** What the claimant says they lost, kopecks. */
    amount: kopecks("amount").notNull(),
    description: text("description").notNull(),
    /** Evidence links (http/https URLs). */
    evidence: jsonb("evidence").$type<string[]>().notNull().default([]),
    status: text("status", { enum: CLAIM_STATUSES }).notNull().default("open"),
    decidedBy: integer("decided_by").references(() => users.id),
    decidedAt: at("decided_at"),
    /** The moderator's reason, shown on /blacklist for upheld claims. */
    decisionNote: text("decision_note"),
    /** Kopecks paid to the claimant from the accused's deposit. */
    compensation: kopecks("compensation"),
    compensationTransferId: integer("compensation_transfer_id").references(() => ledgerTransfers.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("claims_one_open_per_pair")
      .on(t.claimantId, t.accusedId)
      .where(sql`${t.status} = 'open'`),
    index("claims_accused_idx").on(t.accusedId, t.id),
    index("claims_claimant_idx").on(t.claimantId, t.id),
    index("claims_open_idx")
      .on(t.id)
      .where(sql`${t.status} = 'open'`),
    index("claims_upheld_idx")
      .on(t.decidedAt.desc().nullsFirst())
      .where(sql`${t.status} = 'upheld'`),
    check("claims_parties_distinct", sql`${t.claimantId} <> ${t.accusedId}`),
    check("claims_amount_positive", sql`${t.amount} > 0`),
    check("claims_status_known", sql`${t.status} in ('open', 'upheld', 'rejected')`),
    check("claims_decided", sql`(${t.status} = 'open') = (${t.decidedAt} is null)`),
    check("claims_description_length", sql`char_length(${t.description}) between 1 and 5000`),
    check("claims_compensation_positive", sql`${t.compensation} is null or ${t.compensation} > 0`),
  ],
);
