/**
 * The money and trust notification rules (docs/product/notifications.md#money-and-trust, issue 10):
 * which event of the ledger, deals, claims and moderation notifies whom, with which type. Each
 * is stored, delivered live and counted like docs/product/notifications.md#types-and-texts's types (notifications.server.ts), with a
 * group key per subject so handling an event twice notifies once.
 *
 * A block does not silence these: a transfer, a deal, a claim or a moderator's decision concern
 * the recipient's money and account (createNotifications `respectBlocks: false`). Nobody is
 * notified of their own action.
 */
import type { Db } from "~/db/client.server";
import type { EventOf } from "~/lib/events.server";
import { createNotifications, type NewNotification } from "./notifications.server";

const trusted = (db: Db, items: NewNotification[]) => createNotifications(db, items, { respectBlocks: false });

/** transfer.sent: TRANSFER_RECEIVED to the recipient (held or not), from the sender, with the amount. */
export async function onTransferSent(db: Db, event: EventOf<"transfer.sent">): Promise<void> {
  await trusted(db, [
    { recipientId: event.recipientId, type: "TRANSFER_RECEIVED", senderId: event.senderId, amount: event.amount, groupKey: `transfer:${event.transferId}` },
  ]);
}

/** hold.released: HOLD_RELEASED to the recipient, from the sender (who released it, or whose hold ran out). */
export async function onHoldReleased(db: Db, event: EventOf<"hold.released">): Promise<void> {
  await trusted(db, [
    { recipientId: event.recipientId, type: "HOLD_RELEASED", senderId: event.senderId, amount: event.amount, groupKey: `hold:${event.holdId}` },
  ]);
}

/**
 * deal.transitioned: the other party hears of an offer (DEAL_OFFERED), acceptance, funding,
 * delivery, completion, cancellation and dispute; both parties hear a moderator's resolution
 * (DEAL_RESOLVED) and an automatic completion (DEAL_COMPLETED, each from the other party). A
 * request to cancel notifies nobody until agreed to.
 */
export async function onDealTransitioned(db: Db, event: EventOf<"deal.transitioned">): Promise<void> {
  const { dealId, buyerId, sellerId } = event;
  const other = (id: number | null) => (id === buyerId ? sellerId : buyerId);
  const item = (recipientId: number, type: NewNotification["type"], senderId: number): NewNotification => ({
    recipientId,
    type,
    senderId,
    dealId,
    groupKey: `deal:${dealId}`,
  });
  const actor = event.actorId;
  const items: NewNotification[] = [];
  switch (event.action) {
    case "create":
      items.push(item(other(event.createdById), "DEAL_OFFERED", event.createdById));
      break;
    case "accept":
      items.push(item(event.createdById, "DEAL_ACCEPTED", actor!));
      break;
    case "fund":
      items.push(item(sellerId, "DEAL_FUNDED", buyerId));
      break;
    case "deliver":
      items.push(item(buyerId, "DEAL_DELIVERED", sellerId));
      break;
    case "confirm":
      items.push(item(sellerId, "DEAL_COMPLETED", buyerId));
      break;
    case "auto_complete":
      items.push(item(sellerId, "DEAL_COMPLETED", buyerId), item(buyerId, "DEAL_COMPLETED", sellerId));
      break;
    case "cancel":
    case "agree_cancel":
      items.push(item(other(actor), "DEAL_CANCELLED", actor!));
      break;
    case "dispute":
      items.push(item(other(actor), "DEAL_DISPUTED", actor!));
      break;
    case "resolve":
      items.push(item(buyerId, "DEAL_RESOLVED", actor!), item(sellerId, "DEAL_RESOLVED", actor!));
      break;
    case "request_cancel":
      break;
  }
  await trusted(db, items);
}

/** claim.filed: CLAIM_FILED to the accused, from the claimant. */
export async function onClaimFiled(db: Db, event: EventOf<"claim.filed">): Promise<void> {
  await trusted(db, [
    { recipientId: event.accusedId, type: "CLAIM_FILED", senderId: event.claimantId, claimId: event.claimId, groupKey: `claim:${event.claimId}` },
  ]);
}

/** claim.decided: CLAIM_DECIDED to both parties, from the moderator. */
export async function onClaimDecided(db: Db, event: EventOf<"claim.decided">): Promise<void> {
  await trusted(
    db,
    [event.claimantId, event.accusedId].map((recipientId) => ({
      recipientId,
      type: "CLAIM_DECIDED" as const,
      senderId: event.moderatorId,
      claimId: event.claimId,
      groupKey: `claim:${event.claimId}`,
    })),
  );
}

/** report.resolved: REPORT_HANDLED to every reporter, from the moderator, linking to the item reported. */
export async function onReportResolved(db: Db, event: EventOf<"report.resolved">): Promise<void> {
  const { link } = event;
  await trusted(
    db,
    event.reports.map((report) => ({
      recipientId: report.reporterId,
      type: "REPORT_HANDLED" as const,
      senderId: event.moderatorId,
      postId: link.postId ?? null,
      commentId: link.commentId ?? null,
      wallPostId: link.wallPostId ?? null,
      conversationId: link.conversationId ?? null,
      messageId: link.messageId ?? null,
      subjectUserId: link.subjectUserId ?? null,
      groupKey: `report:${report.id}`,
    })),
  );
}

/** ad.reviewed: AD_APPROVED or AD_REJECTED to the advertiser, from the admin (docs/product/pages.md#ads). */
export async function onAdReviewed(db: Db, event: EventOf<"ad.reviewed">): Promise<void> {
  await trusted(db, [
    { recipientId: event.advertiserId, type: event.approved ? "AD_APPROVED" : "AD_REJECTED", senderId: event.adminId, groupKey: `ad:${event.adId}` },
  ]);
}

/** sanction.applied: SANCTION_APPLIED to the member, from the moderator. */
export async function onSanctionApplied(db: Db, event: EventOf<"sanction.applied">): Promise<void> {
  await trusted(db, [{ recipientId: event.userId, type: "SANCTION_APPLIED", senderId: event.moderatorId, groupKey: `sanction:${event.sanctionId}` }]);
}
