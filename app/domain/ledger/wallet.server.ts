/**
 * The member's wallet (issue 5 "Wallet"; docs/product/money.md): admin top-ups through a payment
 * provider, member-to-member transfers with an optional hold the sender may release early,
 * the scheduler's release of due holds. Balances and the balance log are balances.server.ts's.
 *
 * Every money-moving function takes the client's idempotency key and runs as one operation
 * (operations.server.ts); its result is plain JSON, replayed unchanged to a retry. Amounts are
 * integer kopecks, 1 to MAX_OPERATION_KOPECKS (10 000 000 ₽) per operation.
 */
import { and, asc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { ledgerHolds, users } from "~/db/schema";
import { Conflict, Forbidden, InsufficientFunds, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { assertCleanText } from "~/lib/text";
import { writeAudit } from "../moderation/audit.server";
import { getUserById } from "../users/users.server";
import { memberBalances, postTransfers } from "./ledger.server";
import { isValidAmount, MAX_HOLD_HOURS, MAX_MEMO_LENGTH } from "./money";
import {
  assertIdempotencyKey,
  fingerprintOf,
  findOperation,
  idempotencyKeyReused,
  limitNewOperation,
  runOperation,
  runOperationDetailed,
  type Operation,
} from "./operations.server";
import { logger } from "~/lib/logger.server";

export { MAX_HOLD_HOURS, MAX_MEMO_LENGTH };

/** Collects money from outside for a top-up. Later providers (cards, crypto) implement it. */
export interface PaymentProvider {
  readonly id: string;
  /**
   * Collects `amount` kopecks for member `memberId`. Must be idempotent by `idempotencyKey`:
   * topUp calls it again when a request is retried. Resolves once the money is captured.
   */
  collect(input: { memberId: number; amount: number; idempotencyKey: string }): Promise<{ providerReference: string }>;
}

/** The development provider: the money is "captured" at once, nothing is charged anywhere. */
/** The refusal of the transfers limit (docs/product/limits.md#rate-limits). */
const TRANSFER_RATE_MESSAGE = "Слишком много переводов подряд. Подождите минуту и попробуйте снова.";

export const developmentPaymentProvider: PaymentProvider = {
  id: "development",
  async collect(input) {
    return { providerReference: `development:${input.idempotencyKey}` };
  },
};

export interface MemberRef {
  id: number;
  username: string;
}

export interface TopUpResult {
  operationId: number;
  transferId: number;
  memberId: number;
  amount: number;
  /** The member's available balance right after the top-up, kopecks. */
  balanceAfter: number;
}

export interface TransferResult {
  operationId: number;
  transferId: number;
  amount: number;
  recipient: MemberRef;
  /** The hold created, or null for a plain transfer. */
  holdId: number | null;
  /** When the hold releases by itself (ISO time), or null. */
  releaseAt: string | null;
  /** The sender's available balance right after the transfer, kopecks. */
  balanceAfter: number;
}

export interface ReleaseResult {
  holdId: number;
  /** False when the hold had already been released (only the scheduler gets this answer). */
  released: boolean;
  transferId: number | null;
  amount: number;
}

/** Throws ValidationFailed (`invalid_amount`, 400) unless `amount` is 1…MAX_OPERATION_KOPECKS kopecks. */
export function assertAmount(amount: number): void {
  if (!isValidAmount(amount)) {
    const message = "Сумма — от 0,01 до 10 000 000 ₽";
    throw new ValidationFailed(message, { amount: [message] }, "invalid_amount");
  }
}

/**
 * Admin `adminId` credits `amount` kopecks to member `memberId`'s available balance, collected
 * through `provider` (the development provider by default), under idempotency key `key`.
 * Returns TopUpResult. Throws Forbidden (`not_admin`) unless the actor is an admin, NotFound
 * (`member_not_found`) for an unknown member, ValidationFailed (`invalid_amount`) for an amount
 * outside 1…MAX_OPERATION_KOPECKS, ValidationFailed (`invalid_idempotency_key`), Conflict
 * (`idempotency_key_reused`) for a reused key. docs/product/money.md#top-ups. The top-up is
 * written to the audit log in its own operation's transaction (docs/product/moderation.md#audit-log).
 *
 * The provider is asked to collect only for a new key: a retry of a committed top-up replays its
 * result and a key reused for another member or amount is refused, both without collecting.
 */
export async function topUp(
  db: Db,
  adminId: number,
  memberId: number,
  amount: number,
  key: string,
  provider: PaymentProvider = developmentPaymentProvider,
): Promise<TopUpResult> {
  const admin = await getUserById(db, adminId);
  if (admin?.role !== "admin") throw new Forbidden("Пополнять баланс может только администратор", "not_admin");
  assertAmount(amount);
  const member = isValidId(memberId) ? await getUserById(db, memberId) : null;
  if (!member) throw new NotFound("Пользователь не найден", "member_not_found");
  assertIdempotencyKey(key);
  const request = { memberId, amount };
  const existing = await findOperation(db, adminId, key);
  if (existing) {
    if (existing.fingerprint !== fingerprintOf("topup", request)) throw idempotencyKeyReused();
    return existing.result as unknown as TopUpResult;
  }
  const { providerReference } = await provider.collect({ memberId, amount, idempotencyKey: `${adminId}:${key}` });
  return runOperation(db, adminId, key, "topup", request, async (tx, operation) => {
    const [transfer] = await postTransfers(tx, operation.id, [
      {
        kind: "topup",
        from: { kind: "platform_funding" },
        to: { kind: "member_available", userId: memberId },
        amount,
        memo: `${provider.id}:${providerReference}`.slice(0, MAX_MEMO_LENGTH),
      },
    ]);
    await writeAudit(tx, {
      actorId: adminId,
      action: "money.topup",
      targetType: "user",
      targetId: memberId,
      targetUserId: memberId,
      details: { amount, transferId: transfer!.id, provider: provider.id },
    });
    return { operationId: operation.id, transferId: transfer!.id, memberId, amount, balanceAfter: transfer!.creditBalanceAfter };
  });
}

/**
 * Member `senderId` sends `amount` kopecks to `recipient` (a username, «@» optional and
 * case-insensitive, or a member id) under idempotency key `key`. With `holdHours` (1…720) the
 * money goes to the recipient's held balance and is released to their available balance at
 * `now + holdHours` by releaseDueHolds, or earlier by the sender (releaseHold)
 * — docs/product/money.md#holds, LOLZTEAM-style held transfers. `memo` (≤ 500 characters) is shown in both logs.
 * Returns TransferResult. Throws ValidationFailed (`invalid_amount`, `invalid_hold`,
 * `invalid_memo`, `transfer_to_self`; `invalid_text` for a memo or recipient name with NUL or a
 * lone surrogate, app/lib/text.ts), NotFound (`recipient_not_found`), InsufficientFunds
 * (`insufficient_funds`; nothing changes), Conflict (`idempotency_key_reused`).
 */
export async function transferToMember(
  db: Db,
  senderId: number,
  recipient: string | number,
  amount: number,
  options: { holdHours?: number | null; memo?: string | null },
  key: string,
  now: Date = new Date(),
): Promise<TransferResult> {
  const { target, holdHours, memo } = await checkTransfer(db, senderId, recipient, amount, options);
  const request = { recipientId: target.id, amount, holdHours, memo };
  await limitNewOperation(db, senderId, key, "transfers", TRANSFER_RATE_MESSAGE);
  const { result, replayed } = await runOperationDetailed(db, senderId, key, "transfer", request, async (tx, operation) => {
    const [transfer] = await postTransfers(tx, operation.id, [
      holdHours === null
        ? { kind: "transfer", from: { kind: "member_available", userId: senderId }, to: { kind: "member_available", userId: target.id }, amount, memo }
        : { kind: "hold", from: { kind: "member_available", userId: senderId }, to: { kind: "member_held", userId: target.id }, amount, memo },
    ]);
    let holdId: number | null = null;
    let releaseAt: string | null = null;
    if (holdHours !== null) {
      const at = new Date(now.getTime() + holdHours * 3_600_000);
      const [hold] = await tx
        .insert(ledgerHolds)
        .values({ operationId: operation.id, transferId: transfer!.id, senderId, recipientId: target.id, amount, releaseAt: at })
        .returning({ id: ledgerHolds.id });
      holdId = hold!.id;
      releaseAt = at.toISOString();
    }
    return { operationId: operation.id, transferId: transfer!.id, amount, recipient: target, holdId, releaseAt, balanceAfter: transfer!.debitBalanceAfter };
  });
  if (!replayed) {
    eventBus(db).publish({
      type: "transfer.sent",
      transferId: result.transferId,
      senderId,
      recipientId: result.recipient.id,
      amount: result.amount,
      holdId: result.holdId,
    });
  }
  return result;
}

/** The checks transferToMember and previewTransfer share; throws as transferToMember documents. */
async function checkTransfer(
  db: Db,
  senderId: number,
  recipient: string | number,
  amount: number,
  options: { holdHours?: number | null; memo?: string | null },
): Promise<{ target: MemberRef; holdHours: number | null; memo: string | null }> {
  assertAmount(amount);
  const holdHours = options.holdHours ?? null;
  if (holdHours !== null && !(Number.isSafeInteger(holdHours) && holdHours >= 1 && holdHours <= MAX_HOLD_HOURS)) {
    const message = "Срок удержания — от 1 до 720 часов";
    throw new ValidationFailed(message, { holdHours: [message] }, "invalid_hold");
  }
  assertCleanText("memo", options.memo);
  if (typeof recipient === "string") assertCleanText("recipient", recipient);
  const memo = options.memo?.trim() || null;
  if (memo !== null && memo.length > MAX_MEMO_LENGTH) {
    const message = "Комментарий к переводу — не длиннее 500 символов";
    throw new ValidationFailed(message, { memo: [message] }, "invalid_memo");
  }
  const target = await findRecipient(db, recipient);
  if (!target) throw new NotFound("Получатель не найден", "recipient_not_found");
  if (target.id === senderId) {
    const message = "Нельзя перевести деньги самому себе";
    throw new ValidationFailed(message, { recipient: [message] }, "transfer_to_self");
  }
  return { target, holdHours, memo };
}

/** What a transfer would do, shown on its confirmation step (docs/product/interface.md#money-confirmations). Kopecks. */
export interface TransferPreview {
  recipient: MemberRef;
  amount: number;
  /** Transfers between members carry no fee (docs/product/money.md#transfers-between-members). */
  fee: number;
  holdHours: number | null;
  memo: string | null;
  /** The sender's available balance now and after the transfer. */
  balanceBefore: number;
  balanceAfter: number;
}

/**
 * The confirmation step of a transfer: runs every check transferToMember runs (amount, hold,
 * memo, recipient, not oneself) plus the sender's available balance, and moves nothing. Throws
 * as transferToMember does; InsufficientFunds (`insufficient_funds`) when `amount` exceeds the
 * available balance.
 */
export async function previewTransfer(
  db: Db,
  senderId: number,
  recipient: string | number,
  amount: number,
  options: { holdHours?: number | null; memo?: string | null },
): Promise<TransferPreview> {
  const { target, holdHours, memo } = await checkTransfer(db, senderId, recipient, amount, options);
  const { member_available: available } = await memberBalances(db, senderId, ["member_available"]);
  if (amount > available) throw new InsufficientFunds();
  return { recipient: target, amount, fee: 0, holdHours, memo, balanceBefore: available, balanceAfter: available - amount };
}
async function findRecipient(db: Db, recipient: string | number): Promise<MemberRef | null> {
  const where =
    typeof recipient === "number"
      ? isValidId(recipient)
        ? eq(users.id, recipient)
        : null
      : sql`lower(${users.username}) = lower(${recipient.trim().replace(/^@/u, "")})`;
  if (!where) return null;
  const [row] = await db.select({ id: users.id, username: users.username }).from(users).where(where).limit(1);
  return row ?? null;
}

/**
 * Sender `senderId` releases their hold `holdId` early, under idempotency key `key`: the amount
 * moves from the recipient's held to their available balance. Returns ReleaseResult. Throws
 * NotFound (`hold_not_found`) for an unknown hold or another member's (the recipient too:
 * only the sender may release), Conflict (`hold_already_released`) when it was released
 * already, Conflict (`idempotency_key_reused`). docs/product/money.md#holds.
 */
export async function releaseHold(db: Db, senderId: number, holdId: number, key: string): Promise<ReleaseResult> {
  if (!isValidId(holdId)) throw holdNotFound();
  await limitNewOperation(db, senderId, key, "transfers", TRANSFER_RATE_MESSAGE);
  const { result, replayed } = await runOperationDetailed(db, senderId, key, "hold.release", { holdId }, async (tx, operation) => {
    const result = await releaseInTransaction(tx, operation, holdId, senderId);
    if (!result.released) throw new Conflict("Удержание уже снято", "hold_already_released");
    return result;
  });
  if (!replayed) await publishHoldReleased(db, result);
  return result;
}

/** After a release committed: `hold.released` (the recipient's HOLD_RELEASED notification). One query for the parties. */
async function publishHoldReleased(db: Db, result: ReleaseResult): Promise<void> {
  const [hold] = await db
    .select({ senderId: ledgerHolds.senderId, recipientId: ledgerHolds.recipientId })
    .from(ledgerHolds)
    .where(eq(ledgerHolds.id, result.holdId));
  if (hold)
    eventBus(db).publish({ type: "hold.released", holdId: result.holdId, senderId: hold.senderId, recipientId: hold.recipientId, amount: result.amount });
}

/**
 * Releases every hold whose `release_at` is at or before `now` (the scheduler calls it; each
 * release is its own system operation keyed by the hold id, so overlapping runs and restarts
 * never release twice). Returns how many holds this call released. A hold whose release fails
 * is logged and skipped (the holds are walked by id, so it cannot hold the run up); the next run
 * retries it. docs/product/money.md#holds.
 */
export async function releaseDueHolds(db: Db, now: Date = new Date()): Promise<number> {
  let released = 0;
  let after = 0;
  for (;;) {
    const due = await db
      .select({ id: ledgerHolds.id })
      .from(ledgerHolds)
      .where(and(isNull(ledgerHolds.releasedAt), lte(ledgerHolds.releaseAt, now), gt(ledgerHolds.id, after)))
      .orderBy(asc(ledgerHolds.id))
      .limit(100);
    for (const { id } of due) {
      after = id;
      try {
        const { result, replayed } = await runOperationDetailed(db, null, `hold-release:${id}`, "hold.release", { holdId: id }, (tx, operation) =>
          releaseInTransaction(tx, operation, id, null),
        );
        if (result.released && !replayed) {
          released += 1;
          await publishHoldReleased(db, result);
        }
      } catch (error) {
        logger.error({ err: error, area: "wallet", holdId: id }, `release of hold ${id} failed`);
      }
    }
    if (due.length < 100) return released;
  }
}

/** Locks hold `holdId` (before any account, as every hold writer does) and releases it if still held. */
async function releaseInTransaction(tx: Tx, operation: Operation, holdId: number, senderId: number | null): Promise<ReleaseResult> {
  const [hold] = await tx.select().from(ledgerHolds).where(eq(ledgerHolds.id, holdId)).for("update");
  if (!hold || (senderId !== null && hold.senderId !== senderId)) throw holdNotFound();
  if (hold.releasedAt) return { holdId, released: false, transferId: null, amount: hold.amount };
  const [transfer] = await postTransfers(tx, operation.id, [
    {
      kind: "release",
      from: { kind: "member_held", userId: hold.recipientId },
      to: { kind: "member_available", userId: hold.recipientId },
      amount: hold.amount,
    },
  ]);
  await tx.update(ledgerHolds).set({ releasedAt: new Date(), releaseTransferId: transfer!.id }).where(eq(ledgerHolds.id, holdId));
  return { holdId, released: true, transferId: transfer!.id, amount: hold.amount };
}

function holdNotFound(): NotFound {
  return new NotFound("Перевод с удержанием не найден", "hold_not_found");
}
