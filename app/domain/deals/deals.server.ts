/**
 * Guarantor deals (docs/product/deals.md; issue 5 item 4): creating a deal, every
 * transition of its state machine (rules.ts) and the scheduler's automatic completion.
 *
 * Every transition is one ledger operation (runOperation) under the actor's idempotency key: it
 * locks the deal row first (FOR UPDATE), checks the state under that lock, writes one
 * `deal_transitions` row, the ledger legs (memo «Сделка №{id}») and the deal's new state, and
 * commits them together. A retry with the same key replays the stored DealDto; a stale action
 * (the deal moved on meanwhile) is Conflict `deal_state_changed` and changes nothing.
 *
 * Money: funding moves amount + buyer_fee from the buyer's available balance to the escrow
 * account `deal:{id}`; the escrow always ends at 0 — completion pays amount − seller_fee to the
 * seller and the fee to the platform, a refund returns amount + buyer_fee to the buyer, a split
 * pays the seller's share and returns the rest with the buyer's fee (no fee is taken).
 */
import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { dealTransitions, deals, users } from "~/db/schema";
import { postTransfers, type AccountRef, type Leg } from "~/domain/ledger/ledger.server";
import { formatKopecks, MAX_OPERATION_KOPECKS } from "~/domain/ledger/money";
import { limitNewOperation, runOperationDetailed, type Json, type Operation } from "~/domain/ledger/operations.server";
import { Conflict, Forbidden, InsufficientFunds, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { assertCleanText } from "~/lib/text";
import { DEAL_AUTO_COMPLETE_HOURS, DEAL_MIN_AMOUNT, dealFee } from "./fees";
import { isModeratorById } from "~/domain/users/roles.server";
import { writeAudit } from "~/domain/moderation/audit.server";
import { isBlockedBy } from "~/domain/people/relations.server";
import { dealNotFound, loadDealDto } from "./queries.server";
import { checkDealAction, nextDealState } from "./rules";
import { DEADLINE_MAX_DAYS, DESCRIPTION_MAX, NOTE_MAX } from "./schemas";
import { DEAL_ACTIONS, DEAL_RESOLUTIONS, type DealAction, type DealDto, type DealFeePayer, type DealResolution } from "./types";
import { logger } from "~/lib/logger.server";

export { getDeal, listDealsOf, listDisputedDeals } from "./queries.server";
export type { DealAction } from "./types";

type DealRow = typeof deals.$inferSelect;

export interface CreateDealInput {
  /** The other party: a username («@» optional, any case) or a member id. */
  counterparty: string | number;
  /** The creator's own role. */
  role: "buyer" | "seller";
  /** Kopecks, DEAL_MIN_AMOUNT (100 ₽) … MAX_OPERATION_KOPECKS. */
  amount: number;
  description: string;
  deadline: Date;
  feePayer: DealFeePayer;
}

export interface DealActionInput {
  /** dispute: why (required). */
  reason?: string;
  /** resolve: the moderator's decision (required). */
  resolution?: DealResolution;
  /** resolve with split: kopecks of the amount paid to the seller, 1 … amount − 1. */
  sellerShare?: number;
  /** resolve: the moderator's explanation (required). */
  note?: string;
}

/** ValidationFailed (400) with `message` under `field` and `code`. */
export function invalid(field: string, message: string, code: string): ValidationFailed {
  return new ValidationFailed(message, { [field]: [message] }, code);
}

/**
 * Member `creatorId` proposes a deal to `input.counterparty` as buyer or seller, under
 * idempotency key `key`; fees are fixed now (fees.ts). Returns the DealDto in state "created"
 * and records the "create" transition. Nothing moves in the ledger until the buyer funds it.
 * Throws ValidationFailed (`invalid_amount`, `invalid_description`, `invalid_deadline`,
 * `invalid_fee_payer`, `invalid_role`, `deal_with_self`; `invalid_text` for a description or
 * counterparty name with NUL or a lone surrogate, app/lib/text.ts), NotFound (`counterparty_not_found`),
 * Forbidden (`blocked`: the counterparty blocked the creator, docs/product/deals.md#parties-and-terms),
 * Conflict (`idempotency_key_reused`). docs/product/deals.md#parties-and-terms.
 */
export async function createDeal(db: Db, creatorId: number, input: CreateDealInput, key: string, now: Date = new Date()): Promise<DealDto> {
  const { amount, feePayer, role } = input;
  if (!Number.isSafeInteger(amount) || amount < DEAL_MIN_AMOUNT || amount > MAX_OPERATION_KOPECKS) {
    throw invalid("amount", "Сумма сделки — от 100 до 10 000 000 ₽", "invalid_amount");
  }
  assertCleanText("description", input.description);
  if (typeof input.counterparty === "string") assertCleanText("counterparty", input.counterparty);
  const description = input.description.trim();
  if (description.length === 0 || description.length > DESCRIPTION_MAX) {
    throw invalid("description", `Опишите товар или услугу (до ${DESCRIPTION_MAX} символов)`, "invalid_description");
  }
  const deadline = input.deadline;
  if (
    !(deadline instanceof Date) ||
    Number.isNaN(deadline.getTime()) ||
    deadline <= now ||
    deadline.getTime() > now.getTime() + DEADLINE_MAX_DAYS * 86_400_000
  ) {
    throw invalid("deadline", "Срок — дата не раньше сегодняшней и не позже чем через год", "invalid_deadline");
  }
  if (feePayer !== "buyer" && feePayer !== "seller" && feePayer !== "split") throw invalid("feePayer", "Выберите, кто платит комиссию", "invalid_fee_payer");
  if (role !== "buyer" && role !== "seller") throw invalid("role", "Выберите свою роль", "invalid_role");
  const counterparty = await findMember(db, input.counterparty);
  if (!counterparty) throw new NotFound("Пользователь не найден", "counterparty_not_found");
  if (counterparty.id === creatorId) throw invalid("counterparty", "Нельзя заключить сделку с самим собой", "deal_with_self");
  if (await isBlockedBy(db, counterparty.id, creatorId)) {
    throw new Forbidden("Пользователь ограничил общение с вами: предложить ему сделку нельзя", "blocked");
  }
  const buyerId = role === "buyer" ? creatorId : counterparty.id;
  const sellerId = role === "buyer" ? counterparty.id : creatorId;
  const fees = dealFee(amount, feePayer);
  const request = { buyerId, sellerId, amount, description, deadline: deadline.toISOString(), feePayer };
  await limitNewOperation(db, creatorId, key, "deals", "Слишком много новых сделок подряд. Попробуйте позже.");
  const { result, replayed } = await runOperationDetailed(db, creatorId, key, "deal.create", request, async (tx, operation) => {
    const [row] = await tx
      .insert(deals)
      .values({ buyerId, sellerId, createdBy: creatorId, amount, ...fees, feePayer, description, deadline, createdAt: now, updatedAt: now })
      .returning({ id: deals.id });
    await tx
      .insert(dealTransitions)
      .values({ dealId: row!.id, actorId: creatorId, action: "create", fromState: "created", toState: "created", operationId: operation.id });
    return (await loadDealDto(tx, row!.id)) as DealDto & Json;
  });
  if (!replayed) publishTransition(db, result, "create", creatorId);
  return result;
}

async function findMember(db: Db, who: string | number): Promise<{ id: number } | null> {
  if (typeof who === "number") {
    if (!isValidId(who)) return null;
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, who));
    return row ?? null;
  }
  const name = who.trim().replace(/^@/u, "");
  if (name.length === 0) return null;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${name})`)
    .limit(1);
  return row ?? null;
}

/**
 * Member `actorId` applies `action` to deal `dealId` under idempotency key `key` (one
 * operation; `now` stamps the deal's times). Returns the deal after it (a retry with the same
 * key gets the same DealDto back and moves nothing). Publishes `deal.completed` after commit
 * when the seller is paid in full (confirm, moderator's release). A moderator's `resolve` is
 * written to the audit log in the same transaction, naming the party it went against
 * (resolutionAgainst; docs/product/moderation.md#audit-log).
 *
 * Who may do what, in which state: rules.ts (docs/product/deals.md#actions). Throws NotFound
 * (`deal_not_found`) unless the actor is a party or a moderator; Forbidden (`not_a_party`,
 * `not_moderator`, `own_deal`, `creator_cannot_accept`, `buyer_only`, `seller_only`); Conflict
 * (`deal_state_changed` for a stale action, `cancel_already_requested`, `no_cancel_request`,
 * `idempotency_key_reused`); ValidationFailed (`invalid_action`, `reason_required`,
 * `resolution_required`, `note_required`, `invalid_seller_share`, `invalid_text` for a reason or
 * note with NUL or a lone surrogate); InsufficientFunds
 * (`insufficient_funds`) when the buyer's available balance is short on fund. Any refusal
 * changes nothing.
 */
export async function applyDealAction(
  db: Db,
  actorId: number,
  dealId: number,
  action: DealAction,
  input: DealActionInput,
  key: string,
  now: Date = new Date(),
): Promise<DealDto> {
  if (!isValidId(dealId)) throw dealNotFound();
  if (!DEAL_ACTIONS.includes(action)) throw invalid("action", "Неизвестное действие", "invalid_action");
  const request = actionRequest(dealId, action, input);
  const { result, replayed } = await runOperationDetailed(db, actorId, key, `deal.${action}`, request, async (tx, operation) => {
    const deal = await lockDeal(tx, dealId);
    if (!deal) throw dealNotFound();
    const moderator = await isModeratorById(tx, actorId);
    if (actorId !== deal.buyerId && actorId !== deal.sellerId && !moderator) throw dealNotFound();
    const refusal = checkDealAction({ ...deal, createdById: deal.createdBy }, actorId, moderator, action);
    if (refusal) throw refusal.kind === "forbidden" ? new Forbidden(refusal.message, refusal.code) : new Conflict(refusal.message, refusal.code);
    if (request.sellerShare !== undefined && !(request.sellerShare >= 1 && request.sellerShare < deal.amount)) {
      throw invalid("sellerShare", `Доля продавца — от 0,01 ₽ до ${formatKopecks(deal.amount - 1)}`, "invalid_seller_share");
    }
    return (await transition(tx, operation, deal, actorId, action, request, now)) as DealDto & Json;
  });
  if (!replayed) {
    publishTransition(db, result, action, actorId);
    publishCompletion(db, result);
  }
  return result;
}

/**
 * The request an action is fingerprinted by: only the fields its action uses, validated. Throws
 * ValidationFailed (`reason_required`, `resolution_required`, `note_required`,
 * `invalid_seller_share`, `invalid_text`). Also the confirmation step's check (preview.server.ts).
 */
export function actionRequest(dealId: number, action: DealAction, input: DealActionInput) {
  const request: { dealId: number; action: DealAction; reason?: string; resolution?: DealResolution; sellerShare?: number; note?: string } = { dealId, action };
  assertCleanText("reason", input.reason);
  assertCleanText("note", input.note);
  if (action === "dispute") {
    const reason = input.reason?.trim() ?? "";
    if (reason.length === 0 || reason.length > NOTE_MAX) throw invalid("reason", "Опишите причину спора", "reason_required");
    request.reason = reason;
  }
  if (action === "resolve") {
    if (!input.resolution || !DEAL_RESOLUTIONS.includes(input.resolution)) throw invalid("resolution", "Выберите решение", "resolution_required");
    const note = input.note?.trim() ?? "";
    if (note.length === 0 || note.length > NOTE_MAX) throw invalid("note", "Напишите пояснение к решению", "note_required");
    request.resolution = input.resolution;
    request.note = note;
    if (input.resolution === "split") {
      if (input.sellerShare === undefined || !Number.isSafeInteger(input.sellerShare)) {
        throw invalid("sellerShare", "Укажите долю продавца", "invalid_seller_share");
      }
      request.sellerShare = input.sellerShare;
    }
  }
  return request;
}

async function lockDeal(tx: Tx, dealId: number): Promise<DealRow | null> {
  const [row] = await tx.select().from(deals).where(eq(deals.id, dealId)).for("update");
  return row ?? null;
}

const escrowOf = (deal: DealRow): AccountRef => ({ kind: "escrow", reference: `deal:${deal.id}` });
const availableOf = (userId: number): AccountRef => ({ kind: "member_available", userId });

/** The legs that empty the escrow of `deal` for its final state (docs/product/money.md#recipes). */
function settlementLegs(deal: DealRow, outcome: "completed" | "refunded" | "split", sellerShare?: number): Leg[] {
  const memo = `Сделка №${deal.id}`;
  const escrow = escrowOf(deal);
  if (outcome === "completed") {
    return [
      { kind: "payout", from: escrow, to: availableOf(deal.sellerId), amount: deal.amount - deal.sellerFee, memo },
      { kind: "fee", from: escrow, to: { kind: "platform_fee" }, amount: deal.fee, memo },
    ];
  }
  if (outcome === "refunded") return [{ kind: "refund", from: escrow, to: availableOf(deal.buyerId), amount: deal.amount + deal.buyerFee, memo }];
  const share = sellerShare!;
  return [
    { kind: "payout", from: escrow, to: availableOf(deal.sellerId), amount: share, memo },
    { kind: "refund", from: escrow, to: availableOf(deal.buyerId), amount: deal.amount - share + deal.buyerFee, memo },
  ];
}

/**
 * Applies an allowed `action` (checked by the caller under the deal's lock) by `actorId` (null:
 * the scheduler): the transition row, the ledger legs, the deal's new fields. Returns the deal after.
 */
async function transition(
  tx: Tx,
  operation: Operation,
  deal: DealRow,
  actorId: number | null,
  action: DealAction | "auto_complete",
  input: { reason?: string; resolution?: DealResolution; sellerShare?: number; note?: string },
  now: Date,
): Promise<DealDto> {
  const to = action === "auto_complete" ? "completed" : nextDealState({ ...deal, createdById: deal.createdBy }, action, input.resolution);
  const changes: Partial<typeof deals.$inferInsert> = { state: to, updatedAt: now };
  // A cancellation request belongs to the state it was made in: once the deal moves on (delivered,
  // disputed, closed), agreeing to it would refund a buyer who may already hold the goods.
  if (to !== deal.state) changes.cancelRequestedBy = null;
  let legs: Leg[] = [];
  let note: string | null = null;
  switch (action) {
    case "fund":
      legs = [{ kind: "escrow", from: availableOf(deal.buyerId), to: escrowOf(deal), amount: deal.amount + deal.buyerFee, memo: `Сделка №${deal.id}` }];
      changes.fundedAt = now;
      break;
    case "deliver":
      changes.deliveredAt = now;
      changes.autoCompleteAt = new Date(now.getTime() + DEAL_AUTO_COMPLETE_HOURS * 3_600_000);
      break;
    case "request_cancel":
      changes.cancelRequestedBy = actorId;
      break;
    case "dispute":
      note = input.reason!;
      changes.disputedBy = actorId;
      changes.disputeReason = note;
      changes.autoCompleteAt = null;
      break;
    case "resolve":
      note = input.note!;
      changes.resolvedBy = actorId;
      changes.resolutionNote = note;
      if (input.resolution === "split") changes.sellerShare = input.sellerShare!;
      break;
  }
  if (to === "completed" || to === "refunded" || to === "split") {
    legs = settlementLegs(deal, to, input.sellerShare);
    changes.autoCompleteAt = null;
  }
  if (to === "completed" || to === "refunded" || to === "split" || to === "cancelled") changes.closedAt = now;
  await tx
    .insert(dealTransitions)
    .values({ dealId: deal.id, actorId, action, fromState: deal.state, toState: to, operationId: operation.id, note, createdAt: now });
  try {
    await postTransfers(tx, operation.id, legs);
  } catch (error) {
    if (error instanceof InsufficientFunds && action === "fund") {
      throw new InsufficientFunds(`Недостаточно средств: для оплаты сделки нужно ${formatKopecks(deal.amount + deal.buyerFee)} на балансе`);
    }
    throw error;
  }
  await tx.update(deals).set(changes).where(eq(deals.id, deal.id));
  if (action === "resolve") {
    await writeAudit(tx, {
      actorId,
      action: "deal.resolve",
      targetType: "deal",
      targetId: deal.id,
      targetUserId: resolutionAgainst(deal, input.resolution!),
      reason: note,
      details: {
        resolution: input.resolution!,
        buyerId: deal.buyerId,
        sellerId: deal.sellerId,
        amount: deal.amount,
        ...(input.resolution === "split" ? { sellerShare: input.sellerShare! } : {}),
      },
    });
  }
  return (await loadDealDto(tx, deal.id))!;
}

/**
 * The party a dispute's resolution went against, whom its `deal.resolve` audit entry concerns
 * (docs/product/moderation.md#audit-log): the buyer when the money is released to the seller, the
 * seller when it is refunded, and for a split the party the dispute was opened against (the
 * other side of `disputedBy`, as a claim's entries name the accused). Returns a member id.
 */
export function resolutionAgainst(deal: Pick<DealRow, "buyerId" | "sellerId" | "disputedBy">, resolution: DealResolution): number {
  if (resolution === "release") return deal.buyerId;
  if (resolution === "refund") return deal.sellerId;
  return deal.disputedBy === deal.sellerId ? deal.buyerId : deal.sellerId;
}

/** After commit: `deal.transitioned` for the parties' notifications (docs/product/notifications.md#money-and-trust). */
function publishTransition(db: Db, deal: DealDto, action: DealAction | "create" | "auto_complete", actorId: number | null): void {
  eventBus(db).publish({
    type: "deal.transitioned",
    dealId: deal.id,
    action,
    actorId,
    buyerId: deal.buyer.id,
    sellerId: deal.seller.id,
    createdById: deal.createdById,
    toState: deal.state,
  });
}

/** After commit: `deal.completed` when the seller was paid in full (confirm, auto-completion, release). */
function publishCompletion(db: Db, deal: DealDto): void {
  if (deal.state === "completed") eventBus(db).publish({ type: "deal.completed", dealId: deal.id, buyerId: deal.buyer.id, sellerId: deal.seller.id });
}

/**
 * The scheduler's job
 * (docs/product/deals.md#automatic-completion: if the buyer does nothing for 72 hours after delivery, the deal completes automatically): completes every delivered deal whose
 * `auto_complete_at` is at or before `now`, each as its own system operation keyed
 * `deal-auto:{id}`, so overlapping runs, several processes and restarts never pay twice.
 * A deal that left «delivered» meanwhile (confirmed, disputed) is left alone. Returns how many
 * deals this call completed. A failing deal is logged and skipped; the next run retries it.
 */
export async function completeDueDeals(db: Db, now: Date = new Date()): Promise<number> {
  let completed = 0;
  let after = 0;
  for (;;) {
    const due = await db
      .select({ id: deals.id })
      .from(deals)
      .where(and(eq(deals.state, "delivered"), lte(deals.autoCompleteAt, now), gt(deals.id, after)))
      .orderBy(asc(deals.id))
      .limit(100);
    for (const { id } of due) {
      after = id;
      try {
        const { result, replayed } = await runOperationDetailed(db, null, `deal-auto:${id}`, "deal.auto_complete", { dealId: id }, async (tx, operation) => {
          const deal = await lockDeal(tx, id);
          if (!deal || deal.state !== "delivered" || deal.autoCompleteAt === null || deal.autoCompleteAt > now)
            return { completed: false as const, deal: null };
          return { completed: true as const, deal: (await transition(tx, operation, deal, null, "auto_complete", {}, now)) as DealDto & Json };
        });
        if (result.completed && !replayed) {
          completed += 1;
          publishTransition(db, result.deal!, "auto_complete", null);
          publishCompletion(db, result.deal!);
        }
      } catch (error) {
        logger.error({ err: error, area: "deals", dealId: id }, `automatic completion of deal ${id} failed`);
      }
    }
    if (due.length < 100) return completed;
  }
}
