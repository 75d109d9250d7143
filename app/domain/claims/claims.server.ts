/**
 * Claims against members (issue 5; docs/product/claims.md): a member files a claim
 * (amount, description, evidence links, deal reference); a moderator upholds or rejects it.
 * Upheld: the accused gets rank SCAMMER (users.scammer, see ranksOf), the claim joins the public
 * blacklist, and compensation may be paid from the accused's deposit.
 *
 * Lock order (app/db/schema-trust.ts): the claim row first, then ledger accounts. Filing locks the
 * accused's member_deposit account before inserting, so it serialises with a deposit withdrawal
 * completing at the same time (the deposits slice reads open claims under that same lock).
 */
import { and, count, eq, or, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { claims, deals, users } from "~/db/schema";
import { isUniqueViolation } from "~/db/errors";
import { Conflict, Forbidden, InsufficientFunds, NotFound, ValidationFailed } from "~/lib/errors";
import { eventBus } from "~/lib/events.server";
import { isValidId } from "~/lib/ids";
import { assertCleanText, issueCode } from "~/lib/text";
import { lockLedgerAccounts, postTransfers } from "../ledger/ledger.server";
import { formatKopecks } from "../ledger/money";
import { runOperationDetailed, type Json } from "../ledger/operations.server";
import { writeAudit } from "../moderation/audit.server";
import { isModeratorRole } from "../users/roles";
import { getUserById, type UserRow } from "../users/users.server";
import { toClaimDto, type ClaimRow } from "./mapper.server";
import { DecideClaimInputSchema, FileClaimInputSchema, type DecideClaimInput, type FileClaimInput } from "./schemas";
import type { ClaimDto } from "./types";

export { listBlacklist, listClaimsAgainst, listClaimsFiledBy, listOpenClaims } from "./lists.server";

/** True for a member who decides claims: the moderator rule of app/domain/users/roles.ts (isModeratorRole). */
export function isModerator(user: Pick<UserRow, "role"> | null | undefined): boolean {
  return isModeratorRole(user?.role);
}

/**
 * The refusal of a claim input: ValidationFailed with every field's messages; code `invalid_text`
 * when a text carries NUL or a lone surrogate (app/lib/text.ts), else `invalid_input`.
 */
export function invalid(parsed: {
  success: false;
  error: { issues: { path: PropertyKey[]; message: string; code: string; params?: unknown }[] };
}): ValidationFailed {
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
  const code = parsed.error.issues.map(issueCode).find((found) => found !== undefined) ?? "invalid_input";
  return new ValidationFailed(parsed.error.issues[0]?.message ?? "Проверьте поля претензии", fields, code);
}

/** NotFound (`claim_not_found`, 404). */
export function claimNotFound(): NotFound {
  return new NotFound("Претензия не найдена", "claim_not_found");
}

/**
 * The checks of a claim decision before the claim is read (decideClaim and its confirmation step,
 * previewClaimDecision): moderator `moderatorId` may decide, `claimId` is an id, and `input` is a
 * decision, with compensation (kopecks) only when upholding. Returns the parsed decision.
 * Throws Forbidden (`not_moderator`; NotFound first for a claim the caller may not even see),
 * NotFound (`claim_not_found`), ValidationFailed (`invalid_input`, `compensation_on_reject`).
 * docs/product/claims.md#deciding.
 */
export async function parseClaimDecision(
  db: Db,
  moderatorId: number,
  claimId: number,
  input: DecideClaimInput,
): Promise<{ decision: "uphold" | "reject"; note: string; compensation: number | null }> {
  const moderator = await getUserById(db, moderatorId);
  if (!isModeratorRole(moderator?.role)) {
    await getClaim(db, moderatorId, claimId); // NotFound for a claim the caller may not even see
    throw new Forbidden("Решение по претензии принимает модератор", "not_moderator");
  }
  if (!isValidId(claimId)) throw claimNotFound();
  const parsed = DecideClaimInputSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed);
  const { decision, note } = parsed.data;
  const compensation = parsed.data.compensation ?? null;
  if (decision === "reject" && compensation !== null) {
    const message = "Компенсация назначается только при удовлетворении претензии";
    throw new ValidationFailed(message, { compensation: [message] }, "compensation_on_reject");
  }
  return { decision, note, compensation };
}

/**
 * The checks of a decision on `claim` as read (under its lock in decideClaim): moderator
 * `moderatorId` is not a party, the claim is still open, and `compensation` kopecks are at most the
 * claimed amount. Throws Forbidden (`party_cannot_decide`), Conflict (`claim_already_decided`),
 * ValidationFailed (`compensation_above_claim`). docs/product/claims.md#compensation.
 */
export function checkClaimDecidable(
  claim: { claimantId: number; accusedId: number; status: string; amount: number },
  moderatorId: number,
  compensation: number | null,
): void {
  if (claim.claimantId === moderatorId || claim.accusedId === moderatorId) {
    throw new Forbidden("Нельзя решать претензию, в которой вы участвуете", "party_cannot_decide");
  }
  if (claim.status !== "open") throw new Conflict("По этой претензии уже принято решение", "claim_already_decided");
  if (compensation !== null && compensation > claim.amount) {
    const message = `Компенсация не может превышать сумму претензии (${formatKopecks(claim.amount)})`;
    throw new ValidationFailed(message, { compensation: [message] }, "compensation_above_claim");
  }
}

/** InsufficientFunds (`insufficient_deposit`): `compensation` kopecks exceed the accused's `deposit`. */
export function compensationAboveDeposit(deposit: number, compensation: number): InsufficientFunds {
  return new InsufficientFunds(
    `Компенсация больше депозита участника: на депозите ${formatKopecks(deposit)}, а назначено ${formatKopecks(compensation)}`,
    "insufficient_deposit",
  );
}

async function findMember(db: Db, ref: string | number): Promise<UserRow | null> {
  if (typeof ref === "number") return isValidId(ref) ? getUserById(db, ref) : null;
  assertCleanText("accused", ref);
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${ref})`)
    .limit(1);
  return row ?? null;
}

/**
 * Member `claimantId` files a claim against `input.accused` (a username, «@» optional and
 * case-insensitive, or a member id): `amount` kopecks (1…10 000 000 ₽), a description of 10–5000
 * characters, 0–10 http(s) evidence links of ≤ 500 characters, and optionally the id of a deal
 * between the two, under idempotency key `key` (operation "claim.file"): a retried submit with
 * the same key answers the same claim (as filed) instead of a second one or a 409. Returns the
 * new open claim. docs/product/claims.md#filing-a-claim.
 *
 * Throws ValidationFailed (`invalid_input` with field errors; `invalid_text` for text with NUL or
 * a lone surrogate; `claim_against_self`; `deal_not_between_parties` when the deal is unknown or
 * not between the two; `invalid_idempotency_key`), NotFound (`accused_not_found`), Conflict
 * (`claim_already_open`: one open claim per claimant and accused; `idempotency_key_reused`).
 */
export async function fileClaim(db: Db, claimantId: number, input: FileClaimInput, key: string): Promise<ClaimDto> {
  const parsed = FileClaimInputSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed);
  // dealId is a valid id here (FileClaimInputSchema checks it with isValidId).
  const { amount, description, evidence, dealId } = parsed.data;
  const accused = await findMember(db, parsed.data.accused);
  if (!accused) throw new NotFound("Участник, на которого подаётся претензия, не найден", "accused_not_found");
  if (accused.id === claimantId) {
    const message = "Нельзя подать претензию на самого себя";
    throw new ValidationFailed(message, { accused: [message] }, "claim_against_self");
  }
  const request = { accusedId: accused.id, amount, description, evidence, dealId: dealId ?? null };
  try {
    const { result, replayed } = await runOperationDetailed(db, claimantId, key, "claim.file", request, async (tx) => {
      // Serialises with a deposit withdrawal of the accused (it checks open claims under this lock).
      await lockLedgerAccounts(tx, [{ kind: "member_deposit", userId: accused.id }]);
      if (dealId != null) {
        const [deal] = await tx
          .select({ id: deals.id })
          .from(deals)
          .where(
            and(
              eq(deals.id, dealId),
              or(and(eq(deals.buyerId, claimantId), eq(deals.sellerId, accused.id)), and(eq(deals.buyerId, accused.id), eq(deals.sellerId, claimantId))),
            ),
          );
        if (!deal) {
          const message = `Сделка №${dealId} не найдена среди ваших сделок с ${accused.username}`;
          throw new ValidationFailed(message, { dealId: [message] }, "deal_not_between_parties");
        }
      }
      await assertNoOpenClaim(tx, claimantId, accused.id);
      const [inserted] = await tx
        .insert(claims)
        .values({ claimantId, accusedId: accused.id, dealId: dealId ?? null, amount, description, evidence })
        .returning();
      return (await toClaimDto(tx, inserted!)) as ClaimDto & Json;
    });
    if (!replayed) eventBus(db).publish({ type: "claim.filed", claimId: result.id, claimantId: result.claimant.id, accusedId: result.accused.id });
    return result;
  } catch (error) {
    // A concurrent filing for the same pair won the race on claims_one_open_per_pair.
    if (isUniqueViolation(error)) throw claimAlreadyOpen();
    throw error;
  }
}

function claimAlreadyOpen(): Conflict {
  return new Conflict("У вас уже есть открытая претензия к этому участнику — дождитесь решения модератора", "claim_already_open");
}

async function assertNoOpenClaim(tx: Tx, claimantId: number, accusedId: number): Promise<void> {
  const [open] = await tx
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.claimantId, claimantId), eq(claims.accusedId, accusedId), eq(claims.status, "open")));
  if (open) throw claimAlreadyOpen();
}

/**
 * Moderator `moderatorId` decides open claim `claimId` under idempotency key `key` (a retry
 * replays and changes nothing more). `reject`: the claim closes with the note. `uphold`: the note
 * becomes the reason shown on /blacklist, the accused gets rank SCAMMER, and `compensation`
 * kopecks (optional, ≤ the claim's amount and ≤ the accused's deposit) move from the accused's
 * deposit to the claimant's available balance (transfer kind "compensation", memo «Претензия №id»).
 * Publishes `claim.upheld` and, with compensation, `deposit.changed` after the commit. The decision
 * is written to the audit log in the same transaction (docs/product/moderation.md#audit-log).
 * Returns the decided claim. docs/product/claims.md#deciding, docs/product/claims.md#compensation.
 *
 * Throws ValidationFailed (`invalid_input`; `compensation_on_reject`; `compensation_above_claim`),
 * NotFound (`claim_not_found` for an unknown claim or one the caller may not see), Forbidden
 * (`not_moderator`; `party_cannot_decide` for a moderator who is a party), Conflict
 * (`claim_already_decided`; `idempotency_key_reused`), InsufficientFunds (`insufficient_deposit`
 * when compensation exceeds the deposit). Nothing changes on any refusal.
 */
export async function decideClaim(db: Db, moderatorId: number, claimId: number, input: DecideClaimInput, key: string): Promise<ClaimDto> {
  const { decision, note, compensation } = await parseClaimDecision(db, moderatorId, claimId, input);
  const request = { claimId, decision, note, compensation };
  const { result, replayed } = await runOperationDetailed(db, moderatorId, key, "claim.decide", request, async (tx, operation) => {
    const [claim] = await tx.select().from(claims).where(eq(claims.id, claimId)).for("update");
    if (!claim) throw claimNotFound();
    checkClaimDecidable(claim, moderatorId, compensation);
    let transferId: number | null = null;
    let depositAfter: number | null = null;
    if (decision === "uphold" && compensation !== null) {
      const depositRef = { kind: "member_deposit" as const, userId: claim.accusedId };
      const balances = await lockLedgerAccounts(tx, [depositRef, { kind: "member_available", userId: claim.claimantId }]);
      const deposit = balances.get(`member_deposit:${claim.accusedId}`) ?? 0;
      if (compensation > deposit) throw compensationAboveDeposit(deposit, compensation);
      const [transfer] = await postTransfers(tx, operation.id, [
        {
          kind: "compensation",
          from: depositRef,
          to: { kind: "member_available", userId: claim.claimantId },
          amount: compensation,
          memo: `Претензия №${claim.id}`,
        },
      ]);
      transferId = transfer!.id;
      depositAfter = transfer!.debitBalanceAfter;
    }
    if (decision === "uphold") await tx.update(users).set({ scammer: true }).where(eq(users.id, claim.accusedId));
    await tx
      .update(claims)
      .set({
        status: decision === "uphold" ? "upheld" : "rejected",
        decidedBy: moderatorId,
        decidedAt: new Date(),
        decisionNote: note,
        compensation: decision === "uphold" ? compensation : null,
        compensationTransferId: transferId,
      })
      .where(eq(claims.id, claim.id));
    await writeAudit(tx, {
      actorId: moderatorId,
      action: decision === "uphold" ? "claim.uphold" : "claim.reject",
      targetType: "claim",
      targetId: claim.id,
      targetUserId: claim.accusedId,
      reason: note,
      details: { claimantId: claim.claimantId, amount: claim.amount, compensation: decision === "uphold" ? compensation : null },
    });
    return { claimId: claim.id, claimantId: claim.claimantId, accusedId: claim.accusedId, upheld: decision === "uphold", transferId, depositAfter };
  });
  if (!replayed) {
    eventBus(db).publish({
      type: "claim.decided",
      claimId: result.claimId,
      claimantId: result.claimantId,
      accusedId: result.accusedId,
      moderatorId,
      upheld: result.upheld,
    });
  }
  if (!replayed && result.upheld) {
    const bus = eventBus(db);
    bus.publish({ type: "claim.upheld", claimId: result.claimId, accusedId: result.accusedId, claimantId: result.claimantId });
    if (result.depositAfter !== null) bus.publish({ type: "deposit.changed", userId: result.accusedId, deposit: result.depositAfter });
  }
  const [row] = await db.select().from(claims).where(eq(claims.id, result.claimId));
  return toClaimDto(db, row!);
}

/**
 * Claim `claimId` as `viewerId` (null for a visitor) may see it: upheld claims are public (the
 * blacklist links to them); open and rejected ones only to the claimant, the accused and
 * moderators. Throws NotFound (`claim_not_found`) otherwise and for an unknown id.
 */
export async function getClaim(db: Db, viewerId: number | null, claimId: number): Promise<ClaimDto> {
  const row = isValidId(claimId) ? (await db.select().from(claims).where(eq(claims.id, claimId)))[0] : undefined;
  if (!row || !(await maySee(db, viewerId, row))) throw claimNotFound();
  return toClaimDto(db, row);
}

async function maySee(db: Db, viewerId: number | null, row: ClaimRow): Promise<boolean> {
  if (row.status === "upheld") return true;
  if (viewerId === null) return false;
  if (viewerId === row.claimantId || viewerId === row.accusedId) return true;
  return isModeratorRole((await getUserById(db, viewerId))?.role);
}

/**
 * How many open claims name member `userId` as the accused (deposit withdrawals wait while any is
 * open: docs/product/money.md#deposits). Pass the transaction to count under its locks.
 */
export async function countOpenClaimsAgainst(db: Db | Tx, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(claims)
    .where(and(eq(claims.accusedId, userId), eq(claims.status, "open")));
  return row?.value ?? 0;
}
