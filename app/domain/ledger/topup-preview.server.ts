/**
 * The confirmation step of the admin's top-up on /profile/wallet
 * (docs/product/interface.md#money-confirmations): whom the money is credited to and their balance
 * after, after every check topUp makes. Nothing is collected, nothing moves; topUp checks again.
 */
import type { Db } from "~/db/client.server";
import { getUserById } from "~/domain/users/users.server";
import { Forbidden, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { memberBalances } from "./ledger.server";
import { assertAmount, type MemberRef } from "./wallet.server";

/** What a top-up would credit. Kopecks. */
export interface TopUpPreview {
  member: MemberRef;
  amount: number;
  /** The development provider charges nothing (docs/product/money.md#top-ups). */
  fee: number;
  /** The member's available balance now and after the top-up. */
  balanceBefore: number;
  balanceAfter: number;
}

/**
 * The confirmation step of admin `adminId` crediting `amount` kopecks to member `memberId`
 * (topUp, docs/product/money.md#top-ups). Returns TopUpPreview. Throws as topUp does: Forbidden
 * (`not_admin`), ValidationFailed (`invalid_amount`), NotFound (`member_not_found`).
 */
export async function previewTopUp(db: Db, adminId: number, memberId: number, amount: number): Promise<TopUpPreview> {
  const admin = await getUserById(db, adminId);
  if (admin?.role !== "admin") throw new Forbidden("Пополнять баланс может только администратор", "not_admin");
  assertAmount(amount);
  const member = isValidId(memberId) ? await getUserById(db, memberId) : null;
  if (!member) throw new NotFound("Пользователь не найден", "member_not_found");
  const { member_available: balance } = await memberBalances(db, memberId, ["member_available"]);
  return { member: { id: member.id, username: member.username }, amount, fee: 0, balanceBefore: balance, balanceAfter: balance + amount };
}
